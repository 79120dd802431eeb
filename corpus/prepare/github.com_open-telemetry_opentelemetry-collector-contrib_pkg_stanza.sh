# stanza's go.sum lacks the checksums of three modules of its own
# repository (go vet refuses every package then); record them.
GOFLAGS=-mod=mod go mod download \
	github.com/open-telemetry/opentelemetry-collector-contrib/internal/coreinternal \
	github.com/open-telemetry/opentelemetry-collector-contrib/internal/common \
	github.com/open-telemetry/opentelemetry-collector-contrib/extension/storage >/dev/null 2>&1 || true

# hystrix-go predates modules: its zip has no go.mod. Make one; its few
# dependencies resolve to their newest versions.
if [ ! -f go.mod ]; then
	go mod init github.com/afex/hystrix-go >/dev/null 2>&1
	go mod tidy >/dev/null 2>&1 || true
fi

# cadvisor requires github.com/google/cadvisor/lib v0.0.0 through a local
# replace that the module zip does not carry: take the published lib of
# the same version instead.
if grep -q 'github.com/google/cadvisor/lib v0.0.0' go.mod; then
	go mod edit -dropreplace=github.com/google/cadvisor/lib -require=github.com/google/cadvisor/lib@v0.61.0
	go mod tidy >/dev/null 2>&1 || true
fi

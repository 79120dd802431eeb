# dendrite v0.13.8 pins a golang.org/x/tools from before Go 1.23 whose
# internal/tokeninternal no longer compiles; take one that does. (Its
# end-to-end test helpers also need libolm's headers through cgo; those
# few test packages are left unanalysed.)
if grep -q 'golang.org/x/tools v0.21' go.mod; then
	GOFLAGS=-mod=mod go get golang.org/x/tools@v0.30.0 >/dev/null 2>&1 || true
fi

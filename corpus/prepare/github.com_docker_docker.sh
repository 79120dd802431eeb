# The module zip of docker/docker has no go.mod: the repository keeps its
# requirements in vendor.mod. Use them as the module's go.mod.
if [ ! -f go.mod ]; then
	cp vendor.mod go.mod
	cp vendor.sum go.sum
	rm -rf vendor
	go mod download >/dev/null 2>&1 || true
fi

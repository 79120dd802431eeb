# mongo-driver v1's zip has vendor/modules.txt but not the vendored code:
# resolve dependencies from the module cache instead.
export GOFLAGS=-mod=mod

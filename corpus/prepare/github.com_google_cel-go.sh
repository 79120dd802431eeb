# cel-go's zip keeps a vendor/modules.txt without the vendored code: read
# the dependencies from the module cache instead.
export GOFLAGS="${GOFLAGS:+$GOFLAGS }-mod=mod"

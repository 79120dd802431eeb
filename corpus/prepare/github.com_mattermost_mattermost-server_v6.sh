# This zip ships a vendor folder that fetch-module's tidy leaves
# out of step with go.mod: build from the module cache instead.
export GOFLAGS=-mod=mod

# Half of influxdb's packages use flux through cgo and ask pkg-config for
# it. Analysis needs only its headers, which the flux module ships: point
# pkg-config at them.
flux=$(go list -m -f '{{.Dir}}' github.com/influxdata/flux)
pc=$(mktemp -d)
cat >"$pc/flux.pc" <<PC
Name: flux
Description: headers only, for analysis
Version: 0
Cflags: -I$flux/libflux/include
Libs:
PC
export PKG_CONFIG_PATH=$pc

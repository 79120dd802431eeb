module github.com/lockgap/lockgap

go 1.26.0

require (
	github.com/golangci/plugin-module-register v0.1.2
	// v0.50.0 to v0.52.0 give vettools export data of their own making, in
	// which some dependencies lose unexported methods: lockgap then fails to
	// type-check packages that build (arrow-go compute/exprs). Keep v0.49.0.
	golang.org/x/tools v0.49.0
)

require (
	golang.org/x/mod v0.41.0 // indirect
	golang.org/x/sync v0.24.0 // indirect
)

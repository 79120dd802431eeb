// Package disk registers its driver while the program initialises: from
// an init function, and from a package variable's initialiser.
package disk

import "initentries/registry"

func init() {
	registry.MustRegister("disk", open) // want `initentries/registry.MustRegister init`
}

var tmp = register("tmp")

func register(name string) bool {
	return registry.Register(name, open) == nil // want `initentries/registry.Register init`
}

func open() any { return "disk" }

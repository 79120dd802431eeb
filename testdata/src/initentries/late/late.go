// Package late registers drivers at run time, named in a configuration:
// its registrations can race.
package late

import "initentries/registry"

func Load(names []string) {
	for _, n := range names {
		go registry.Register(n, nil) // want `initentries/registry.Register other`
	}
}

// Hooks hands the registration out as a value: who calls it, and when,
// is anyone's guess.
var Hooks = map[string]func(string, registry.Creator){
	"register": registry.MustRegister, // want `initentries/registry.MustRegister other`
}

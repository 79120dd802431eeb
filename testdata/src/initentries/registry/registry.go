// Package registry keeps drivers by name. Register tests for a duplicate
// in one section and inserts in another: a gap, unless every call is made
// while packages initialise (one at a time). This package cannot tell;
// its entries are marked so that the driver can, from the callers.
package registry

import (
	"fmt"
	"sync"
)

type Creator func() any

var (
	mu       sync.Mutex
	creators = map[string]Creator{}
)

// Register makes a driver available by name.
func Register(name string, c Creator) error {
	mu.Lock()
	_, dup := creators[name]
	mu.Unlock()
	if dup {
		return fmt.Errorf("driver %q registered twice", name)
	}
	mu.Lock() // want `mu is locked again after the section that checked: creators\[name\] was missing`
	creators[name] = c
	mu.Unlock()
	return nil
}

// MustRegister is Register for callers that cannot go on without it.
func MustRegister(name string, c Creator) {
	if err := Register(name, c); err != nil {
		panic(err)
	}
}

// New runs a driver's constructor; it decides nothing across sections.
func New(name string) any {
	mu.Lock()
	c := creators[name]
	mu.Unlock()
	if c == nil {
		return nil
	}
	return c()
}

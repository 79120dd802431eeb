// Package registry makes routes on first use. Ensure checks and stores
// in two sections of r.mu: known false in its program, where every call
// of Ensure holds the route name's lock in package gateway, through an
// interface (a lock held by callers in another package). The interface's
// method names no type of the module, so one declared outside it could
// reach Ensure too: out of the driver's reach, which counts the calls
// through an interface only where the interface could not be another
// module's.
package registry

import "sync"

type Route struct{ Name string }

type Registry struct {
	mu     sync.RWMutex
	routes map[string]*Route
}

func New() *Registry { return &Registry{routes: make(map[string]*Route)} }

func (r *Registry) Ensure(name string) {
	r.mu.RLock()
	_, ok := r.routes[name]
	r.mu.RUnlock()
	if ok {
		return
	}
	rt := &Route{Name: name}
	r.mu.Lock() // want `r.mu is locked again for writing after RUnlock: r.routes\[name\] was missing under the read lock`
	r.routes[name] = rt
	r.mu.Unlock()
}

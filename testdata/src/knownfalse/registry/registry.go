// Package registry makes routes on first use. ensure checks and stores
// in two sections of r.mu: known false in its program, where every call
// of Ensure holds the route name's lock in package gateway, through an
// interface (a lock held by callers in another package, out of the
// driver's reach).
package registry

import "sync"

type Route struct{ Name string }

type Registry struct {
	mu     sync.RWMutex
	routes map[string]*Route
}

func New() *Registry { return &Registry{routes: make(map[string]*Route)} }

func (r *Registry) Ensure(name string) *Route {
	r.mu.RLock()
	rt, ok := r.routes[name]
	r.mu.RUnlock()
	if ok {
		return rt
	}
	rt = &Route{Name: name}
	r.mu.Lock() // want `r.mu is locked again for writing after RUnlock: rt was missing under the read lock`
	r.routes[name] = rt
	r.mu.Unlock()
	return rt
}

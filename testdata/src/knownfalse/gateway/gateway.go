// Package gateway serialises everything it does to one route name under
// that name's lock, and reaches the registry through an interface.
package gateway

import (
	"sync"

	"knownfalse/registry"
)

type Router interface {
	Ensure(name string)
}

type Gateway struct {
	router Router
	mu     sync.Mutex
	names  map[string]*sync.Mutex
}

func New() *Gateway {
	return &Gateway{router: registry.New(), names: make(map[string]*sync.Mutex)}
}

func (g *Gateway) nameLock(name string) *sync.Mutex {
	g.mu.Lock()
	defer g.mu.Unlock()
	l, ok := g.names[name]
	if !ok {
		l = new(sync.Mutex)
		g.names[name] = l
	}
	return l
}

func (g *Gateway) Attach(name string) {
	l := g.nameLock(name)
	l.Lock()
	defer l.Unlock()
	g.router.Ensure(name)
}

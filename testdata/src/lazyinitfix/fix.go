// Package lazyinitfix holds the lazy-initialisation shapes rlockgap can
// fix, and their fixed forms in fix.go.golden.
package lazyinitfix

import "sync"

type Client struct{ name string }

func connect(name string) *Client { return &Client{name: name} }

type Clients struct {
	mu      sync.RWMutex
	clients map[string]*Client
}

func (c *Clients) Get(name string) *Client {
	c.mu.RLock()
	cl, ok := c.clients[name]
	c.mu.RUnlock()
	if ok {
		return cl
	}
	cl = connect(name) // slow: stays outside the lock
	c.mu.Lock() // want `c.mu is locked again for writing after RUnlock: cl was missing`
	c.clients[name] = cl
	c.mu.Unlock()
	return cl
}

func (c *Clients) GetErr(name string) (*Client, error) {
	c.mu.RLock()
	cl := c.clients[name]
	c.mu.RUnlock()
	if cl != nil {
		return cl, nil
	}
	cl = connect(name)
	c.mu.Lock() // want `c.mu is locked again for writing after RUnlock: cl was missing`
	defer c.mu.Unlock()
	c.clients[name] = cl
	return cl, nil
}

var (
	kindsMu sync.RWMutex
	kinds   = map[string]*Client{}
)

func Register(name string) bool {
	kindsMu.RLock()
	_, dup := kinds[name]
	kindsMu.RUnlock()
	if dup {
		return false
	}
	cl := connect(name)
	kindsMu.Lock() // want `kindsMu is locked again for writing after RUnlock: kinds\[name\] was missing`
	kinds[name] = cl
	kindsMu.Unlock()
	return true
}

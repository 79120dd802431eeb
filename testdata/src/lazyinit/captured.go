package lazyinit

import (
	"log"
	"sync"
	"time"
)

// Conns keeps one connection per address. Its methods hand the receiver
// to a deferred closure (a timing log), which makes Go keep c in a
// variable of its own: the sections are still c.mu's.
type Conns struct {
	mu     sync.RWMutex
	byAddr map[string]*conn
}

type conn struct {
	addr  string
	inUse map[int]bool
}

// Dial makes the connection if it is missing, without looking again
// under the write lock. Reported.
func (c *Conns) Dial(addr string) *conn {
	start := time.Now()
	defer func() { log.Printf("dial %s: %v (%d open)", addr, time.Since(start), len(c.byAddr)) }()
	c.mu.RLock()
	cn := c.byAddr[addr]
	c.mu.RUnlock()
	if cn != nil {
		return cn
	}
	cn = &conn{addr: addr, inUse: make(map[int]bool)}
	c.mu.Lock() // want `c.mu is locked again for writing after RUnlock: cn was missing under the read lock`
	c.byAddr[addr] = cn
	c.mu.Unlock()
	return cn
}

// DialChecked looks again under the write lock. Silent.
func (c *Conns) DialChecked(addr string) *conn {
	start := time.Now()
	defer func() { log.Printf("dial %s: %v (%d open)", addr, time.Since(start), len(c.byAddr)) }()
	c.mu.RLock()
	cn := c.byAddr[addr]
	c.mu.RUnlock()
	if cn != nil {
		return cn
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if cn := c.byAddr[addr]; cn != nil {
		return cn
	}
	cn = &conn{addr: addr, inUse: make(map[int]bool)}
	c.byAddr[addr] = cn
	return cn
}

// DialScoped reads in a closure called in place (to scope the read
// lock's defer) and creates inline: the same miss, reported the same.
func (c *Conns) DialScoped(addr string) *conn {
	var cn *conn
	func() {
		c.mu.RLock()
		defer c.mu.RUnlock()
		cn = c.byAddr[addr]
	}()
	if cn != nil {
		return cn
	}
	cn = &conn{addr: addr, inUse: make(map[int]bool)}
	c.mu.Lock() // want `c.mu is locked again for writing after RUnlock: cn was missing under the read lock`
	c.byAddr[addr] = cn
	c.mu.Unlock()
	return cn
}

// DialScopedChecked creates in a second closure that looks again.
// Silent.
func (c *Conns) DialScopedChecked(addr string) *conn {
	var cn *conn
	func() {
		c.mu.RLock()
		defer c.mu.RUnlock()
		cn = c.byAddr[addr]
	}()
	if cn != nil {
		return cn
	}
	func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		if cn = c.byAddr[addr]; cn == nil {
			cn = &conn{addr: addr, inUse: make(map[int]bool)}
			c.byAddr[addr] = cn
		}
	}()
	return cn
}

// countCache is computed once and kept by value.
type countCache struct {
	valid bool
	count int
}

type Segment struct {
	mu    sync.RWMutex
	first countCache
	lines []string
}

// FirstCount copies the cache out, and where it is not valid yet,
// computes it and stores it only if it is still not valid: the test of
// the copy's valid field is made again on the field. Silent.
func (s *Segment) FirstCount() int {
	c := func() countCache {
		s.mu.RLock()
		defer s.mu.RUnlock()
		return s.first
	}()
	if !c.valid {
		n := len(s.lines)
		c = func() countCache {
			s.mu.Lock()
			defer s.mu.Unlock()
			if !s.first.valid {
				s.first = countCache{valid: true, count: n}
			}
			return s.first
		}()
	}
	return c.count
}

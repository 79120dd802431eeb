// Package testharness holds tests that take the locks of the code under
// test to stage its state by hand, and a fake the tests declare.
package testharness

import "sync"

// Pool is the code under test.
type Pool struct {
	mu    sync.RWMutex
	conns []string
	hits  int
}

func (p *Pool) Put(c string) {
	p.mu.Lock()
	p.conns = append(p.conns, c)
	p.mu.Unlock()
}

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

// Watch reports the number of connections until stopped, from a
// goroutine of its own that only reads.
func (p *Pool) Watch(report func(int)) (stop func()) {
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-done:
				return
			default:
			}
			p.mu.RLock()
			n := len(p.conns)
			p.mu.RUnlock()
			report(n)
		}
	}()
	return func() { close(done) }
}

// Layers is a tree of layers whose add is only ever called by Stack.Push,
// with the stack's own lock held: the outer lock serialises add's two
// sections. A test that calls add on its own does not change that.
type Layers struct {
	mu    sync.RWMutex
	nodes map[string]*layer
}

type layer struct {
	root   string
	parent *layer
}

func (l *Layers) get(root string) *layer {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return l.nodes[root]
}

func (l *Layers) add(root, parent string) bool {
	if l.get(root) != nil {
		return false
	}
	p := l.get(parent)
	if p == nil {
		return false
	}
	l.mu.Lock()
	l.nodes[root] = &layer{root: root, parent: p}
	l.mu.Unlock()
	return true
}

type Stack struct {
	mu     sync.Mutex
	layers *Layers
}

func (s *Stack) Push(root, parent string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.layers.add(root, parent)
}

// Len and Grow lock internally.
func (p *Pool) Len() int {
	p.mu.RLock()
	defer p.mu.RUnlock()
	return len(p.conns)
}

func (p *Pool) Grow(c string) {
	p.mu.Lock()
	p.conns = append(p.conns, c)
	p.mu.Unlock()
}

// Drain fills a pool it made itself and never hands to anyone: its lock
// has no other user, so the check and the refill cannot be split. Silent.
func Drain(n int) int {
	p := &Pool{}
	for p.Len() < n {
		p.Grow("c")
	}
	return p.Len()
}

// Serve makes a pool and lets a goroutine use it: the check and the
// refill can be split by that goroutine. Reported.
func Serve(n int, done chan struct{}) {
	p := &Pool{}
	go func() {
		p.Put("c")
		close(done)
	}()
	if p.Len() < n {
		p.Grow("c") // want `p.mu is locked again for writing by p.Grow after RUnlock: the write is decided by p.Len\(\)`
	}
}

// Entry is what Mirror keeps in a Store.
type Entry struct{ Size int }

// Store is the storage the code under test writes through; the tests
// hand it a stub.
type Store interface {
	Get(key string) (Entry, bool)
	Put(key string, e Entry)
}

// Mirror copies e to key unless the store has it already; it returns
// once the store has answered.
func Mirror(s Store, key string, e Entry) {
	if _, ok := s.Get(key); !ok {
		s.Put(key, e)
	}
}

// Mirrors copies entries into a store and logs what it copied, the log
// drained by a goroutine of its own that never touches the store.
type Mirrors struct {
	store Store
	log   chan string
}

func NewMirrors(s Store) *Mirrors {
	m := &Mirrors{store: s, log: make(chan string, 16)}
	go m.drainLog()
	return m
}

func (m *Mirrors) drainLog() {
	for range m.log {
	}
}

func (m *Mirrors) Copy(key string, e Entry) {
	Mirror(m.store, key, e)
	m.log <- key
}

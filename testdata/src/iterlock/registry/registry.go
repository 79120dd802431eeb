package registry

import "sync"

// Handlers registered under a package lock, listed by an iterator
// function that holds the lock while the loop body runs.

var (
	mu       sync.Mutex
	handlers = map[string]func(){}
)

func each(yield func(string, func()) bool) {
	mu.Lock()
	defer mu.Unlock()
	for name, h := range handlers {
		if !yield(name, h) {
			return
		}
	}
}

func Register(name string, h func()) {
	mu.Lock()
	defer mu.Unlock()
	handlers[name] = h
}

// Alias registers a second name for every handler from inside the loop:
// Register waits for the lock the iterator holds.
func Alias(prefix string) {
	for name, h := range each {
		Register(prefix+name, h) // want `mu is held by the iterator while the loop body runs, and Register takes it again: sync.Mutex is not reentrant`
	}
}

// Names only reads in the body: silent.
func Names() []string {
	var names []string
	for name := range each {
		names = append(names, name)
	}
	return names
}

// A pool whose iterator is a closure made in place, holding the pool's
// lock.
type Pool struct {
	mu    sync.Mutex
	conns []string
}

func (p *Pool) release(c string) {
	p.mu.Lock()
	p.conns = append(p.conns, c)
	p.mu.Unlock()
}

// Recycle hands each idle connection back from inside the loop.
func (p *Pool) Recycle() {
	idle := func(yield func(string) bool) {
		p.mu.Lock()
		defer p.mu.Unlock()
		for _, c := range p.conns {
			if !yield(c) {
				return
			}
		}
	}
	for c := range idle {
		p.release(c) // want `p.mu is held by the iterator while the loop body runs, and p.release takes it again`
	}
}

// ForEach calls f for every connection under the pool's lock.
func (p *Pool) ForEach(f func(c string)) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.conns {
		f(c)
	}
}

// Refill hands connections back from inside ForEach.
func (p *Pool) Refill() {
	p.ForEach(func(c string) {
		p.release(c + "-copy") // want `p.mu is held by p.ForEach while it runs the function handed to it, and p.release takes it again: sync.Mutex is not reentrant, so p.ForEach never returns`
	})
}

// Count only counts inside ForEach: silent.
func (p *Pool) Count() int {
	n := 0
	p.ForEach(func(string) { n++ })
	return n
}

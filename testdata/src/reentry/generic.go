package reentry

import "sync"

// Generic containers take their locks through methods of an instantiated
// receiver; a call made with the lock held reaches the same body.

// Registry maps names to plugins of one kind.
type Registry[K comparable, V any] struct {
	mu      sync.RWMutex
	entries map[K]V
}

func (r *Registry[K, V]) Len() int {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return len(r.entries)
}

func (r *Registry[K, V]) Register(k K, v V) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.entries[k] = v
}

// Keys lists the names, sized by a Len that takes the read lock again:
// a Register waiting between the two RLocks hangs both.
func (r *Registry[K, V]) Keys() []K {
	r.mu.RLock()
	defer r.mu.RUnlock()
	keys := make([]K, 0, r.Len()) // want `r.mu is held for reading here and r.Len takes its read lock again`
	for k := range r.entries {
		keys = append(keys, k)
	}
	return keys
}

// Reset holds the write lock and calls a helper that takes it again,
// through a second generic helper: it blocks for ever on the first call.
func (r *Registry[K, V]) Reset() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.forget() // want `r.mu is held for writing here and r.forget \(through r.drop\) locks it again`
}

func (r *Registry[K, V]) forget() {
	r.drop()
}

func (r *Registry[K, V]) drop() {
	r.mu.Lock()
	defer r.mu.Unlock()
	clear(r.entries)
}

// Pool's helpers expect the lock held, as their names say: silent.
type Pool[T any] struct {
	mu   sync.Mutex
	free []T
}

func (p *Pool[T]) lenLocked() int { return len(p.free) }

func (p *Pool[T]) Get() (T, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	var zero T
	if p.lenLocked() == 0 {
		return zero, false
	}
	v := p.free[len(p.free)-1]
	p.free = p.free[:len(p.free)-1]
	return v, true
}

// Catalog is only ever read-locked (it is filled before it is shared):
// no writer can come between its two RLocks, so they cannot hang.
type Catalog[T any] struct {
	mu    sync.RWMutex
	items []T
}

func NewCatalog[T any](items []T) *Catalog[T] { return &Catalog[T]{items: items} }

func (c *Catalog[T]) Count() int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return len(c.items)
}

func (c *Catalog[T]) Last() (T, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	var zero T
	if c.Count() == 0 {
		return zero, false
	}
	return c.items[len(c.items)-1], true
}

// Tracker releases the lock before its helper takes it again.
type Tracker[K comparable] struct {
	mu   sync.Mutex
	seen map[K]int
}

func (t *Tracker[K]) bump(k K) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.seen[k]++
}

func (t *Tracker[K]) Observe(k K) bool {
	t.mu.Lock()
	_, known := t.seen[k]
	t.mu.Unlock()
	if known {
		t.bump(k)
	}
	return known
}

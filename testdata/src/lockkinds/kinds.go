// Package lockkinds exercises lock identity: embedded locks, package
// variables, generic receivers, loops, and distinct receivers.
package lockkinds

import "sync"

// Registry embeds its lock.
type Registry struct {
	sync.RWMutex
	byName map[string]*Item
}

type Item struct{ Name string }

func (r *Registry) Ensure(name string) *Item {
	r.RLock()
	it := r.byName[name]
	r.RUnlock()
	if it != nil {
		return it
	}
	it = &Item{Name: name}
	r.Lock() // want `r is locked again for writing after RUnlock: it was missing`
	r.byName[name] = it
	r.Unlock()
	return it
}

var (
	regMu    sync.RWMutex
	handlers = map[string]func(){}
)

// Register guards a package-level map with a package-level lock.
func Register(name string, h func()) bool {
	regMu.RLock()
	_, dup := handlers[name]
	regMu.RUnlock()
	if dup {
		return false
	}
	regMu.Lock() // want `regMu is locked again for writing after RUnlock: handlers\[name\] was missing`
	handlers[name] = h
	regMu.Unlock()
	return true
}

// Cache is generic over its key and value.
type Cache[K comparable, V any] struct {
	mu    sync.RWMutex
	items map[K]*V
}

func (c *Cache[K, V]) Load(k K, mk func() *V) *V {
	c.mu.RLock()
	v, ok := c.items[k]
	c.mu.RUnlock()
	if ok {
		return v
	}
	v = mk()
	c.mu.Lock() // want `c.mu is locked again for writing after RUnlock: v was missing`
	c.items[k] = v
	c.mu.Unlock()
	return v
}

// Bump upgrades inside a loop body.
func (c *Cache[K, V]) Bump(keys []K, next func(*V) *V) {
	for _, k := range keys {
		c.mu.RLock()
		v := c.items[k]
		c.mu.RUnlock()
		c.mu.Lock() // want `c.mu is locked again for writing after RUnlock: the value written derives from v`
		c.items[k] = next(v)
		c.mu.Unlock()
	}
}

// Move reads one cache and writes another of the same type: different
// receivers, different locks.
func Move[K comparable, V any](from, to *Cache[K, V], k K) {
	from.mu.RLock()
	v := from.items[k]
	from.mu.RUnlock()
	to.mu.Lock()
	to.items[k] = v
	to.mu.Unlock()
}

// LoadChecked is the generic double-checked form.
func (c *Cache[K, V]) LoadChecked(k K, mk func() *V) *V {
	c.mu.RLock()
	v, ok := c.items[k]
	c.mu.RUnlock()
	if ok {
		return v
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if v, ok := c.items[k]; ok {
		return v
	}
	v = mk()
	c.items[k] = v
	return v
}

// Getter takes the lock inside a function literal that captures r.
func (r *Registry) Getter() func(string) *Item {
	return func(name string) *Item {
		r.RLock()
		it := r.byName[name]
		r.RUnlock()
		if it == nil {
			it = &Item{Name: name}
			r.Lock() // want `r is locked again for writing after RUnlock: it was missing`
			r.byName[name] = it
			r.Unlock()
		}
		return it
	}
}

// Preload fills missing entries with values computed under the write lock
// and kept private: a racer's entry is replaced by an equivalent one.
// Silent.
func (r *Registry) Preload(names []string) {
	for _, n := range names {
		r.RLock()
		it := r.byName[n]
		r.RUnlock()
		if it == nil {
			r.Lock()
			r.byName[n] = &Item{Name: n}
			r.Unlock()
		}
	}
}

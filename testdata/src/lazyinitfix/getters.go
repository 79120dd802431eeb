package lazyinitfix

import "sync"

// Lookups through getters that take the read lock, then a fill or a
// bounded insert under the write lock: the fix looks up again after the
// Lock, with the getter written out.

type Address struct{ host string }

type Resolver struct {
	mu      sync.RWMutex
	byName  map[string]*Address
	pinned  []string
	maxPins int
}

func (r *Resolver) cached(name string) *Address {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.byName[name]
}

// Resolve fills the cache on a miss: two callers both resolve, and the
// second replaces the address the first handed out.
func (r *Resolver) Resolve(name string) *Address {
	if a := r.cached(name); a != nil {
		return a
	}
	a := &Address{host: name}
	r.mu.Lock() // want `r.mu is locked again for writing after RUnlock: a was missing under the read lock`
	defer r.mu.Unlock()
	r.byName[name] = a
	return a
}

func (r *Resolver) pins() int {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return len(r.pinned)
}

func (r *Resolver) pin(name string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.pinned = append(r.pinned, name)
}

// Pin keeps at most maxPins names: two callers both see room for one.
func (r *Resolver) Pin(name string) bool {
	if r.pins() >= r.maxPins {
		return false
	}
	r.pin(name) // want `r.mu is locked again for writing by r.pin after RUnlock: the write is decided by r.pins\(\)`
	return true
}

// A backend table whose getter returns the lookup's two values.
type Backend struct{ upstream string }

type Backends struct {
	mu     sync.RWMutex
	byHost map[string]*Backend
}

func (t *Backends) backend(host string) (*Backend, bool) {
	t.mu.RLock()
	defer t.mu.RUnlock()
	b, ok := t.byHost[host]
	return b, ok
}

func (t *Backends) Learn(host, upstream string) *Backend {
	if b, ok := t.backend(host); ok {
		return b
	}
	b := &Backend{upstream: upstream}
	t.mu.Lock() // want `t.mu is locked again for writing after RUnlock: b was missing under the read lock`
	t.byHost[host] = b
	t.mu.Unlock()
	return b
}

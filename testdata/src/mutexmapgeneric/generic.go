// Package mutexmapgeneric holds keyed locks written with type parameters,
// and odd uses of sync.Map the pass must get through without a report or
// a crash.
package mutexmapgeneric

import "sync"

// KeyLock is a generic keyed lock on a plain map that deletes after use.
type KeyLock[K comparable] struct {
	mu    sync.Mutex
	locks map[K]*sync.Mutex
}

func (k *KeyLock[K]) get(key K) *sync.Mutex {
	k.mu.Lock()
	defer k.mu.Unlock()
	l, ok := k.locks[key]
	if !ok {
		l = new(sync.Mutex)
		k.locks[key] = l
	}
	return l
}

func (k *KeyLock[K]) Do(key K, f func()) {
	l := k.get(key)
	l.Lock()
	defer l.Unlock()
	f()
	k.mu.Lock()
	delete(k.locks, key) // want `per-key mutex removed from k.locks by delete`
	k.mu.Unlock()
}

// Counted is the generic reference-counted form: silent.
type Counted[K comparable] struct {
	mu sync.Mutex
	m  map[K]*counted
}

type counted struct {
	sync.RWMutex
	n int
}

func (c *Counted[K]) Lock(key K) func() {
	c.mu.Lock()
	e := c.m[key]
	if e == nil {
		e = &counted{}
		c.m[key] = e
	}
	e.n++
	c.mu.Unlock()
	e.Lock()
	return func() {
		e.Unlock()
		c.mu.Lock()
		if e.n--; e.n == 0 {
			delete(c.m, key)
		}
		c.mu.Unlock()
	}
}

// Cache keyed by a type parameter: key types are not known statically,
// so no mismatch can be claimed.
type Cache[K comparable, V any] struct {
	m sync.Map
}

func (c *Cache[K, V]) Put(k K, v V) { c.m.Store(k, v) }
func (c *Cache[K, V]) Drop(k string) { c.m.Delete(k) }

// Odd uses: a method value, a map in an array, a pointer field set from
// outside, a map passed by pointer.
type Odd struct {
	shards [4]sync.Map
	ptr    *sync.Map
	locks  sync.Map
}

func (o *Odd) Shard(i int, k string) {
	o.shards[i%4].Store(k, new(sync.Mutex))
	o.shards[i%4].Delete(k)
}

func (o *Odd) Use(other *sync.Map) {
	o.ptr = other
	o.ptr.Store(1, "one")
	o.ptr.Delete("one")
}

func (o *Odd) Deleter() func(any) {
	o.locks.Store("k", new(sync.Mutex))
	return o.locks.Delete
}

func each(m *sync.Map, f func(k, v any) bool) { m.Range(f) }

func (o *Odd) Walk() { each(&o.locks, func(k, v any) bool { return true }) }

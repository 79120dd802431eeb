package servicedir

import "sync"

type backend struct {
	addr string
	hits int
}

// Backends is the pool an owner's traffic goes to, filled on first use.
type Backends struct {
	mu    sync.RWMutex
	pool  []*backend
	dials int
}

// Hit counts a request on the first backend. The pool was not empty under
// the read lock, but a Drain in the gap empties it, and the re-check under
// the write lock then drops the hit without a word.
func (b *Backends) Hit(seed string) {
	b.mu.RLock()
	ready := len(b.pool) > 0
	b.mu.RUnlock()
	if !ready {
		b.fill(seed)
	}

	b.mu.Lock() // want `b.mu is locked again for writing after RUnlock: ready said b.pool was not empty under the read lock; if it is emptied before the lock is taken again, the re-check there gives up quietly and the update is lost`
	if len(b.pool) > 0 {
		b.pool[0].hits++
	}
	b.mu.Unlock()
}

// fill seeds an empty pool; a pool filled meanwhile wins.
func (b *Backends) fill(seed string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.pool) == 0 {
		b.pool = append(b.pool, &backend{addr: seed})
		b.dials++
	}
}

// Drain empties the pool.
func (b *Backends) Drain() {
	b.mu.Lock()
	b.pool = nil
	b.mu.Unlock()
}

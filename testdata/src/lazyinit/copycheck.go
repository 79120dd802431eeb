package lazyinit

import "sync"

// Double-checked locking whose second check tests the local copy made
// under the read lock instead of the shared field: the copy cannot have
// changed, so the "re-check" never fires and every racer stores.

type Backend struct {
	mu       sync.RWMutex
	maxBatch *int
	codecs   map[string]*Codec
	remote   func() int
}

type Codec struct{ name string }

// MaxBatch asks the backend once and remembers the answer. Its second
// test is of maxBatch, the copy: two callers that both found nothing both
// ask, and the second replaces the first's answer.
func (b *Backend) MaxBatch() int {
	b.mu.RLock()
	maxBatch := b.maxBatch
	b.mu.RUnlock()
	if maxBatch != nil {
		return *maxBatch
	}
	b.mu.Lock() // want `b.mu is locked again for writing after RUnlock: maxBatch, set from b.maxBatch under the read lock, is tested again under the write lock; it cannot have changed, so the re-check never sees what another goroutine stored, and this store replaces it; set maxBatch from b.maxBatch again under the write lock before testing it`
	defer b.mu.Unlock()
	if maxBatch != nil {
		return *maxBatch
	}
	n := b.remote()
	b.maxBatch = &n
	return n
}

// Codec re-tests the comma-ok answer of the first lookup.
func (b *Backend) Codec(name string) *Codec {
	b.mu.RLock()
	c, ok := b.codecs[name]
	b.mu.RUnlock()
	if ok {
		return c
	}
	b.mu.Lock() // want `b.mu is locked again for writing after RUnlock: ok, set from b.codecs\[name\] under the read lock, is tested again under the write lock`
	defer b.mu.Unlock()
	if ok {
		return c
	}
	c = &Codec{name: name}
	b.codecs[name] = c
	return c
}

// MaxBatchChecked reads the field again under the write lock: a correct
// double check.
func (b *Backend) MaxBatchChecked() int {
	b.mu.RLock()
	maxBatch := b.maxBatch
	b.mu.RUnlock()
	if maxBatch != nil {
		return *maxBatch
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	maxBatch = b.maxBatch
	if maxBatch != nil {
		return *maxBatch
	}
	n := b.remote()
	b.maxBatch = &n
	return n
}

// CodecChecked tests the copy under the write lock only to count the
// miss, then looks the map up again before deciding: the copy's test is
// no re-check and the decision is fresh.
func (b *Backend) CodecChecked(name string) *Codec {
	b.mu.RLock()
	c, ok := b.codecs[name]
	b.mu.RUnlock()
	if ok {
		return c
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if !ok {
		misses++
	}
	if c, ok := b.codecs[name]; ok {
		return c
	}
	c = &Codec{name: name}
	b.codecs[name] = c
	return c
}

var misses int

// MaxBatchCompared tests the copy against the field under the write lock:
// a re-check of the shared state, which the copy only takes part in.
func (b *Backend) MaxBatchCompared() int {
	b.mu.RLock()
	maxBatch := b.maxBatch
	b.mu.RUnlock()
	if maxBatch != nil {
		return *maxBatch
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.maxBatch != maxBatch {
		return *b.maxBatch
	}
	n := b.remote()
	b.maxBatch = &n
	return n
}

// A purse whose second test mixes the copy with a fresh look at the
// balance: the fresh read decides, and the copy only short-cuts it.
type Wallet struct {
	mu      sync.RWMutex
	balance int64
}

func (p *Wallet) Spend(amount int64) bool {
	p.mu.RLock()
	covered := p.balance >= amount
	p.mu.RUnlock()
	if !covered {
		return false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if !covered || p.balance < amount {
		return false
	}
	p.balance -= amount
	return true
}

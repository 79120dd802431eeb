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

// Touch is Hit with the test written where it is used: the message names
// the pool alone.
func (b *Backends) Touch(seed string) {
	b.mu.RLock()
	if len(b.pool) > 0 {
		b.mu.RUnlock()
		b.mu.Lock() // want `b.mu is locked again for writing after RUnlock: b.pool was found not empty under the read lock; if it is emptied before the lock is taken again, the re-check there gives up quietly and the update is lost`
		if len(b.pool) > 0 {
			b.pool[0].hits++
		}
		b.mu.Unlock()
		return
	}
	b.mu.RUnlock()
	b.fill(seed)
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

// Members is the membership a client learns from the cluster.
type Members struct {
	mu    sync.RWMutex
	nodes map[int]*node
}

type node struct {
	addr string
	seen int
}

// Ensure asks the cluster only when no member was known. The stale test
// only short-circuits: had members arrived in between, merging the
// cluster's answer into them is harmless. Silent.
func (m *Members) Ensure(ask func() map[int]string) {
	m.mu.RLock()
	known := len(m.nodes) > 0
	m.mu.RUnlock()
	if known {
		return
	}
	m.merge(ask())
}

// merge updates the members the answer names, then adds the new ones.
func (m *Members) merge(answer map[int]string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for id, addr := range answer {
		if n, ok := m.nodes[id]; ok {
			n.addr = addr
			n.seen++
		}
	}
	for id, addr := range answer {
		if _, ok := m.nodes[id]; !ok {
			m.nodes[id] = &node{addr: addr}
		}
	}
}

// EnsureFresh installs the cluster's answer when no member was known:
// members that arrived in between are replaced and their counts lost.
func (m *Members) EnsureFresh(ask func() map[int]string) {
	m.mu.RLock()
	known := len(m.nodes) > 0
	m.mu.RUnlock()
	if known {
		return
	}
	m.install(ask()) // want `m.mu is locked again for writing by m.install after RUnlock: the write is decided by known`
}

func (m *Members) install(answer map[int]string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for id, addr := range answer {
		m.nodes[id] = &node{addr: addr}
	}
}

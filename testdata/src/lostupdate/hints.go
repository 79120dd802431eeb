package lostupdate

import "sync"

// Shard swaps in an empty table sized like the old one. The size read in
// the first section is only a capacity hint: whatever it was, the new
// table is empty. Silent.
type Shard struct {
	mu      sync.RWMutex
	entries map[string][]byte
	order   []string
}

func (s *Shard) Reset() {
	s.mu.RLock()
	n := len(s.entries)
	s.mu.RUnlock()

	fresh := make(map[string][]byte, n)
	s.mu.Lock()
	s.entries = fresh
	s.mu.Unlock()
}

func (s *Shard) ResetOrder() {
	s.mu.RLock()
	n := len(s.order)
	s.mu.RUnlock()

	fresh := make([]string, 0, n)
	s.mu.Lock()
	s.order = fresh
	s.mu.Unlock()
}

// Truncate keeps the first n keys it saw: a key added in between is lost
// from the order (the length, unlike a capacity, is what is kept).
func (s *Shard) Truncate() {
	s.mu.RLock()
	n := len(s.order)
	s.mu.RUnlock()

	kept := make([]string, n)
	s.mu.Lock() // want `s.mu is locked again for writing after RUnlock: the value written derives from n`
	copy(kept, s.order)
	s.order = kept
	s.mu.Unlock()
}

// Marks bumps a counter read by a closure under the read lock: the
// message names the variable the closure's result lands in.
type Marks struct {
	mu    sync.RWMutex
	marks map[string]int
}

func (m *Marks) Bump(key string) {
	n, ok := func(m *Marks) (int, bool) {
		m.mu.RLock()
		defer m.mu.RUnlock()
		n, ok := m.marks[key]
		return n, ok
	}(m)
	if !ok {
		return
	}
	m.mu.Lock() // want `m.mu is locked again for writing after RUnlock: the value written derives from n, read under the read lock`
	m.marks[key] = n + 1
	m.mu.Unlock()
}

// Files queues ids for deletion; Compact refuses an id already queued,
// checked by a range over the queue in one section, and queues it in
// another: two compactions of one id both queue it. The message names the
// queue, which the range reads without an expression of its own.
type Files struct {
	mu     sync.RWMutex
	doomed []int
}

func (f *Files) Compact(id int) bool {
	f.mu.RLock()
	for _, d := range f.doomed {
		if d == id {
			f.mu.RUnlock()
			return false
		}
	}
	f.mu.RUnlock()
	f.mu.Lock() // want `f.mu is locked again for writing after RUnlock: the write is decided by f.doomed\[...\], read under the read lock`
	f.doomed = append(f.doomed, id)
	f.mu.Unlock()
	return true
}

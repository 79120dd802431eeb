package lostupdate

import "sync"

// Deduplicating readers that share one table of the hashes seen per
// range. A range's set is added to the table only where a lookup under
// the write lock found none, and nothing ever removes or replaces it:
// the set found under the read lock is still the table's when the
// write lock is taken, and adding to it is not lost. Silent. The twin
// table forgets a range when its query ends: the set found may be an
// orphan by then, and what is added to it is lost. Reported. So is the
// table whose Start replaces a range's set whether or not one is there.

type seenTable struct {
	mu   sync.RWMutex
	seen map[string]map[string]struct{}
}

func newSeenTable() *seenTable { return &seenTable{seen: map[string]map[string]struct{}{}} }

// Add reports whether h is new in range r.
func (t *seenTable) Add(r, h string) bool {
	t.mu.RLock()
	hashes, ok := t.seen[r]
	if ok {
		if _, dup := hashes[h]; dup {
			t.mu.RUnlock()
			return false
		}
		t.mu.RUnlock()
		t.mu.Lock()
		if _, dup := hashes[h]; dup {
			t.mu.Unlock()
			return false
		}
		hashes[h] = struct{}{}
		t.mu.Unlock()
		return true
	}
	t.mu.RUnlock()
	t.mu.Lock()
	defer t.mu.Unlock()
	if _, ok := t.seen[r]; ok {
		return false
	}
	t.seen[r] = map[string]struct{}{h: {}}
	return true
}

func (t *seenTable) Ranges() int {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return len(t.seen)
}

type resetTable struct {
	mu   sync.RWMutex
	seen map[string]map[string]struct{}
}

func (t *resetTable) Add(r, h string) bool {
	t.mu.RLock()
	hashes, ok := t.seen[r]
	if ok {
		if _, dup := hashes[h]; dup {
			t.mu.RUnlock()
			return false
		}
		t.mu.RUnlock()
		t.mu.Lock() // want `t.mu is locked again for writing after RUnlock: the write goes through hashes`
		if _, dup := hashes[h]; dup {
			t.mu.Unlock()
			return false
		}
		hashes[h] = struct{}{}
		t.mu.Unlock()
		return true
	}
	t.mu.RUnlock()
	t.mu.Lock()
	defer t.mu.Unlock()
	if _, ok := t.seen[r]; ok {
		return false
	}
	t.seen[r] = map[string]struct{}{h: {}}
	return true
}

// Done forgets range r once its query ends.
func (t *resetTable) Done(r string) {
	t.mu.Lock()
	delete(t.seen, r)
	t.mu.Unlock()
}

// A table whose Start puts a fresh set in for a range whether or not one
// is there: a set found under the read lock may have been replaced by
// then. Reported.
type restartTable struct {
	mu   sync.RWMutex
	seen map[string]map[string]struct{}
}

func (t *restartTable) Add(r, h string) bool {
	t.mu.RLock()
	hashes, ok := t.seen[r]
	t.mu.RUnlock()
	if !ok {
		return false
	}
	t.mu.Lock() // want `t.mu is locked again for writing after RUnlock: the write goes through hashes`
	defer t.mu.Unlock()
	if _, dup := hashes[h]; dup {
		return false
	}
	hashes[h] = struct{}{}
	return true
}

func (t *restartTable) Start(r string) {
	t.mu.Lock()
	t.seen[r] = map[string]struct{}{}
	t.mu.Unlock()
}

package lostupdate

import "sync"

type entry struct {
	refs int
	data []byte
}

type Table struct {
	mu      sync.RWMutex
	entries map[string]*entry
}

// Release tests the reference count of the entry it found under the read
// lock, then deletes by key under the write lock: by then the key may hold
// a new entry, and that is the one deleted.
func (t *Table) Release(k string) {
	t.mu.RLock()
	e := t.entries[k]
	t.mu.RUnlock()
	if e == nil {
		return
	}
	t.mu.Lock() // want `t.mu is locked again for writing after RUnlock: the write goes through e, read under the read lock, which may have been removed or replaced since`
	e.refs--
	if e.refs == 0 {
		delete(t.entries, k)
	}
	t.mu.Unlock()
}

// ReleaseChecked looks the entry up again under the write lock and
// compares identity before deleting.
func (t *Table) ReleaseChecked(k string) {
	t.mu.RLock()
	e := t.entries[k]
	t.mu.RUnlock()
	if e == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	cur := t.entries[k]
	if cur == nil {
		return
	}
	cur.refs--
	if cur.refs == 0 {
		delete(t.entries, k)
	}
}

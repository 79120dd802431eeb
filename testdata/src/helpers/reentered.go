package helpers

import "sync"

// A keyring whose replacement takes the write lock and then calls a
// lookup that takes the read lock again. sync.RWMutex is not reentrant,
// so the call blocks for ever; but it opens no second section either:
// whatever it reads is read under the write lock already held, and the
// writes that follow cannot be stale. Nothing to report as a gap.

type key struct {
	id    string
	names []string
}

type keyring struct {
	mu     sync.RWMutex
	byName map[string][]string // name -> key ids
	keys   map[string]key
}

// idsFor takes the read lock itself.
func (r *keyring) idsFor(name string) []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return append([]string(nil), r.byName[name]...)
}

// drop expects the write lock held.
func (r *keyring) drop(name, id string) {
	ids := r.byName[name]
	kept := ids[:0]
	for _, other := range ids {
		if other != id {
			kept = append(kept, other)
		}
	}
	r.byName[name] = kept
	delete(r.keys, id)
}

func (r *keyring) ReplaceHeld(k key) {
	r.mu.Lock()
	for _, name := range k.names {
		for _, id := range r.idsFor(name) {
			r.drop(name, id)
		}
	}
	r.keys[k.id] = k
	r.mu.Unlock()
}

// ReplaceAfter looks up first and locks afterwards: the keys found may
// have been replaced in between, and a key stored since under a dropped
// id is removed.
func (r *keyring) ReplaceAfter(k key) {
	name := k.names[0]
	ids := r.idsFor(name)
	r.mu.Lock() // want `r.mu is locked again for writing after RUnlock: the value written derives from ids, read under the read lock; an update made in between is lost; re-read it under the write lock`
	for _, id := range ids {
		r.drop(name, id)
	}
	r.keys[k.id] = k
	r.mu.Unlock()
}

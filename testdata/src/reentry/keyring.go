package reentry

import "sync"

// A keyring whose replacement takes the write lock and then calls a
// lookup that takes the read lock again. sync.RWMutex is not reentrant:
// the call never returns, which is what is reported. It opens no second
// section either: what it would read is read under the write lock
// already held, so there is no stale read to report as well.

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
		for _, id := range r.idsFor(name) { // want `r.mu is held for writing here and r.idsFor takes its read lock: sync.RWMutex is not reentrant, so the call never returns; call a variant that expects the lock held, or unlock before the call`
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

// Count holds the read lock and asks a helper that takes it again for
// reading. Alone it goes through, but a replacement's Lock arriving in
// between waits for Count's read lock, and idsFor's RLock waits behind
// the Lock: both hang.
func (r *keyring) Count(name string) int {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return len(r.idsFor(name)) // want `r.mu is held for reading here and r.idsFor takes its read lock again: a writer whose Lock comes in between waits for this reader, and the second RLock waits behind that writer, so both hang; call a variant that expects the lock held, or read under the one RLock`
}

// A catalog filled before it is shared and only read afterwards: no
// function of the package takes its write lock, so no writer can come
// between the two read locks.
type catalog struct {
	mu    sync.RWMutex
	names map[string]string
}

func (c *catalog) title(id string) string {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.names[id]
}

func (c *catalog) Heading(id string) string {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return "== " + c.title(id)
}

// Forget holds the read lock and calls a helper that takes the write
// lock: it waits for every reader, this one too.
func (r *keyring) Forget(name string) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if len(r.byName[name]) > 0 {
		r.clear(name) // want `r.mu is held for reading here and r.clear takes its write lock, which waits for every reader, this one too: the call never returns; unlock before the call, or take the write lock from the start`
	}
}

func (r *keyring) clear(name string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.byName, name)
}

// lookup takes the lock only when its caller does not hold it.
func (r *keyring) lookup(name string, held bool) []string {
	if !held {
		r.mu.RLock()
		defer r.mu.RUnlock()
	}
	return r.byName[name]
}

func (r *keyring) Rename(from, to string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.byName[to] = r.lookup(from, true)
	delete(r.byName, from)
}

// unlock releases the caller's lock: after it, taking the lock again is
// fine, whatever the held-lock state says.
func (r *keyring) unlock() { r.mu.Unlock() }

func (r *keyring) DropThenList(name string) []string {
	r.mu.Lock()
	delete(r.byName, name)
	r.unlock()
	return r.idsFor(name)
}

// shard locks are elements of one slice: holding one and taking
// another's is not a reentry.
type shard struct {
	mu   sync.RWMutex
	keys map[string]key
}

func (s *shard) size() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return len(s.keys)
}

type shardedRing struct{ shards []*shard }

// Balance holds each shard's lock in turn while it sizes up the others.
func (r *shardedRing) Balance(id string) {
	for _, src := range r.shards {
		src.mu.Lock()
		for _, dst := range r.shards {
			if dst != src && dst.size() < len(src.keys) {
				delete(src.keys, id)
			}
		}
		src.mu.Unlock()
	}
}

// Rotate holds the write lock and calls a helper that locks it again for
// writing.
func (r *keyring) Rotate(k key) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.keys[k.id]; !ok {
		r.put(k) // want `r.mu is held for writing here and r.put locks it again: sync.RWMutex is not reentrant, so the call never returns; call a variant that expects the lock held, or unlock before the call`
	}
}

func (r *keyring) put(k key) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.keys[k.id] = k
}

// Checkout hands the unlock to a sync.Once, which may run it before the
// helper is called: the helper's lock is not known to be held.
func (r *keyring) Checkout(k key, release bool) {
	var once sync.Once
	r.mu.Lock()
	defer once.Do(r.mu.Unlock)
	if release {
		once.Do(r.mu.Unlock)
	}
	r.put(k)
}

// stale's first step is the locking lookup: every run of it takes the
// read lock, one helper down.
func (r *keyring) stale(name string) bool {
	ids := r.idsFor(name)
	return len(ids) == 0
}

// Prune holds the write lock and asks stale, which takes the read lock
// through idsFor: the same hang, two calls deep.
func (r *keyring) Prune(name string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.stale(name) { // want `r.mu is held for writing here and r.stale \(through r.idsFor\) takes its read lock: sync.RWMutex is not reentrant, so the call never returns; call a variant that expects the lock held, or unlock before the call`
		delete(r.byName, name)
	}
}

// staleIfAsked reaches the locking lookup only when asked to: a call
// that does not ask goes through, so nothing certain is reported.
func (r *keyring) staleIfAsked(name string, check bool) bool {
	if !check {
		return false
	}
	return len(r.idsFor(name)) == 0
}

func (r *keyring) PruneUnchecked(name string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.staleIfAsked(name, false) {
		delete(r.byName, name)
	}
}

// refreshReleased drops its caller's lock before the lookup and takes it
// back after: called with the lock held, it neither hangs nor returns
// without the lock.
func (r *keyring) refreshReleased(name string) []string {
	r.unlock()
	ids := r.idsFor(name)
	r.mu.Lock()
	return ids
}

func (r *keyring) RefreshHeld(name string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.byName[name] = r.refreshReleased(name)
}

// releaseIfIdle drops its caller's lock when the name has no keys left,
// and handOff calls it before the lookup: on that run the lookup takes a
// free lock, so the call is not certain to hang.
func (r *keyring) releaseIfIdle(name string) {
	if len(r.byName[name]) == 0 {
		r.mu.Unlock()
	}
}

func (r *keyring) handOff(name string) []string {
	r.releaseIfIdle(name)
	return r.idsFor(name)
}

func (r *keyring) HandOff(name string) []string {
	r.mu.Lock()
	return r.handOff(name)
}

// Overlaps holds its own keyring's read lock and asks another keyring:
// two objects, two locks; keyed by the lock's type and field alone the
// second RLock would look recursive.
func (r *keyring) Overlaps(o *keyring, name string) bool {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return len(r.byName[name]) > 0 && len(o.idsFor(name)) > 0
}

// A registry whose lock is shared with its snapshots, kept behind a
// pointer: the same lock by its field, so the recursive read lock is
// reported as for a lock held by value.
type sharedRegistry struct {
	mu    *sync.RWMutex
	names map[string]string
}

func (s *sharedRegistry) lookup(id string) string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.names[id]
}

func (s *sharedRegistry) Label(id string) string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return "#" + s.lookup(id) // want `s.mu is held for reading here and s.lookup takes its read lock again`
}

func (s *sharedRegistry) Rename(id, name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.names[id] = name
}

// A catalog behind a shared pointer lock that nothing write-locks: the
// second read lock cannot get stuck behind a writer. Silent.
type sharedCatalog struct {
	mu     *sync.RWMutex
	titles map[string]string
}

func (c *sharedCatalog) title(id string) string {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.titles[id]
}

func (c *sharedCatalog) Heading(id string) string {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return "== " + c.title(id)
}

// Package mutexmapplain holds keyed locks built on plain maps guarded by
// a lock of their own: the broken shape (delete after use, no count) next
// to the reference-counted one, and maps that merely never shrink.
package mutexmapplain

import (
	"sync"
	"time"
)

// VolumeLocks serialises attach and detach per volume. release deletes
// the volume's lock as soon as its holder is done, but another caller may
// have fetched it from the map already and be blocked on it; the caller
// after that creates a new one.
type VolumeLocks struct {
	mu    sync.Mutex
	locks map[string]*sync.RWMutex
}

func (v *VolumeLocks) get(volume string) *sync.RWMutex {
	v.mu.Lock()
	defer v.mu.Unlock()
	l, ok := v.locks[volume]
	if !ok {
		l = new(sync.RWMutex)
		v.locks[volume] = l
	}
	return l
}

func (v *VolumeLocks) Attach(volume string, attach func() error) error {
	l := v.get(volume)
	l.Lock()
	err := attach()
	l.Unlock()
	v.mu.Lock()
	delete(v.locks, volume) // want `per-key mutex removed from v.locks by delete while another goroutine may hold or wait on it`
	v.mu.Unlock()
	return err
}

func (v *VolumeLocks) Stat(volume string, stat func()) {
	l := v.get(volume)
	l.RLock()
	defer l.RUnlock()
	stat()
}

// Reset forgets every lock at once, held or not.
func (v *VolumeLocks) Reset() {
	v.mu.Lock()
	clear(v.locks) // want `per-key mutexes removed from v.locks by clear`
	v.mu.Unlock()
}

// KeyedLock counts its holders under its own lock and deletes an entry
// only when the count drops to zero: no one can hold or wait on a mutex
// that leaves the map.
type KeyedLock struct {
	mu      sync.Mutex
	entries map[string]*keyEntry
}

type keyEntry struct {
	sync.Mutex
	holders int
}

func NewKeyedLock() *KeyedLock { return &KeyedLock{entries: make(map[string]*keyEntry)} }

func (k *KeyedLock) Lock(key string) {
	k.mu.Lock()
	e := k.entries[key]
	if e == nil {
		e = &keyEntry{}
		k.entries[key] = e
	}
	e.holders++
	k.mu.Unlock()
	e.Lock()
}

func (k *KeyedLock) Unlock(key string) {
	k.mu.Lock()
	e := k.entries[key]
	e.Unlock()
	e.holders--
	if e.holders == 0 {
		delete(k.entries, key)
	}
	k.mu.Unlock()
}

// RefLocks is the same design with the count tested the other way round
// and the map's lock released by defer.
type RefLocks struct {
	mu    sync.Mutex
	locks map[uint64]*refLock
}

type refLock struct {
	mu   sync.Mutex
	refs int32
	last time.Time
}

func (r *RefLocks) acquire(id uint64) *refLock {
	r.mu.Lock()
	l, ok := r.locks[id]
	if !ok {
		l = &refLock{}
		r.locks[id] = l
	}
	l.refs++
	r.mu.Unlock()
	l.mu.Lock()
	return l
}

func (r *RefLocks) release(id uint64, l *refLock) {
	l.last = time.Now()
	l.mu.Unlock()
	r.mu.Lock()
	defer r.mu.Unlock()
	l.refs--
	if l.refs > 0 {
		return
	}
	delete(r.locks, id)
}

func (r *RefLocks) Do(id uint64, f func()) {
	l := r.acquire(id)
	defer r.release(id, l)
	f()
}

// Tables keeps a lock per table forever: the set of tables is small.
type Tables struct {
	mu    sync.Mutex
	locks map[string]*sync.Mutex
}

func (t *Tables) With(table string, f func()) {
	t.mu.Lock()
	l := t.locks[table]
	if l == nil {
		l = &sync.Mutex{}
		t.locks[table] = l
	}
	t.mu.Unlock()
	l.Lock()
	defer l.Unlock()
	f()
}

// ShardLocks counts the holder itself: an entry starts at one for its
// creator, each waiter adds one before blocking, and the unlocker deletes
// it while it is the only one counted, else takes itself off.
type ShardLocks struct {
	mu    sync.Mutex
	byKey map[any]*shardLock
}

type shardLock struct {
	users int
	sync.Mutex
}

func (s *ShardLocks) Lock(key any) {
	s.mu.Lock()
	l, ok := s.byKey[key]
	if !ok {
		l = &shardLock{users: 1}
		s.byKey[key] = l
		s.mu.Unlock()
		l.Lock()
		return
	}
	l.users++
	s.mu.Unlock()
	l.Lock()
}

func (s *ShardLocks) Unlock(key any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	l := s.byKey[key]
	l.Unlock()
	if l.users == 1 {
		delete(s.byKey, key)
	} else {
		l.users--
	}
}

// TallyLocks tests a count that is not kept per entry: how many keys are
// locked says nothing about who waits on this one.
type TallyLocks struct {
	mu     sync.Mutex
	byKey  map[string]*sync.Mutex
	locked int
}

func (t *TallyLocks) Lock(key string) {
	t.mu.Lock()
	l, ok := t.byKey[key]
	if !ok {
		l = new(sync.Mutex)
		t.byKey[key] = l
	}
	t.locked++
	t.mu.Unlock()
	l.Lock()
}

func (t *TallyLocks) Unlock(key string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.byKey[key].Unlock()
	if n := len(t.byKey); n == 1 {
		delete(t.byKey, key) // want `per-key mutex removed from t.byKey by delete while another goroutine may hold or wait on it`
	}
	t.locked--
}

// ShardedLocks spreads ShardLocks over shards, each with its own map lock,
// kept in a map of shards: the lock held at the delete is a shard's, an
// entry of another map than the one deleted from.
type ShardedLocks struct {
	shards map[uint32]*lockShard
}

type lockShard struct {
	sync.Mutex
	byKey map[string]*shardLock
}

func (s *ShardedLocks) Lock(key string) {
	sh := s.shards[uint32(len(key))%8]
	sh.Lock()
	l, ok := sh.byKey[key]
	if !ok {
		l = &shardLock{users: 1}
		sh.byKey[key] = l
		sh.Unlock()
		l.Lock()
		return
	}
	l.users++
	sh.Unlock()
	l.Lock()
}

func (s *ShardedLocks) Unlock(key string) {
	sh := s.shards[uint32(len(key))%8]
	sh.Lock()
	defer sh.Unlock()
	l := sh.byKey[key]
	l.Unlock()
	if l.users == 1 {
		delete(sh.byKey, key)
	} else {
		l.users--
	}
}

// EntryLocks deletes at a zero count while holding only the entry's own
// mutex: a newcomer reading the map meanwhile is not shut out.
type EntryLocks struct {
	mu      sync.Mutex
	entries map[string]*countedLock
}

type countedLock struct {
	sync.Mutex
	users int
}

func (e *EntryLocks) Lock(key string) *countedLock {
	e.mu.Lock()
	l := e.entries[key]
	if l == nil {
		l = &countedLock{}
		e.entries[key] = l
	}
	l.users++
	e.mu.Unlock()
	l.Lock()
	return l
}

func (e *EntryLocks) Unlock(key string) {
	l := e.entries[key]
	l.users--
	if l.users == 0 {
		delete(e.entries, key) // want `per-key mutex removed from e.entries by delete`
	}
	l.Unlock()
}

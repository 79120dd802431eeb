// Package helpers holds upgrades whose read or write is a helper method,
// including shapes found in real code that must stay silent.
package helpers

import (
	"strconv"
	"sync"
)

// Run is a test-like object: Failed reads under the read lock, Fail
// writes under the write lock.
type Run struct {
	mu     sync.RWMutex
	failed bool
	log    []string
}

func (r *Run) Failed() bool {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.failed
}

func (r *Run) Fail(msg string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.failed = true
	r.log = append(r.log, msg)
}

// Finish marks the run failed unless it already is: if it failed in the
// meantime, failing again only adds a line. Silent.
func (r *Run) Finish(ok bool) {
	if !ok && !r.Failed() {
		r.Fail("finished without success")
	}
}

// Zones caches a table fetched from elsewhere; a miss forces a refresh of
// the whole table, which any racer may do again harmlessly. Silent.
type Zones struct {
	mu     sync.RWMutex
	byName map[string]int
	fetch  func() map[string]int
}

func (z *Zones) refresh() {
	z.mu.Lock()
	defer z.mu.Unlock()
	table := z.fetch()
	z.byName = make(map[string]int, len(table))
	for name, idx := range table {
		z.byName[name] = idx
	}
}

func (z *Zones) Index(name string) int {
	z.mu.RLock()
	idx, ok := z.byName[name]
	z.mu.RUnlock()
	if !ok {
		z.refresh()
		z.mu.RLock()
		idx, ok = z.byName[name]
		z.mu.RUnlock()
	}
	if !ok {
		idx, _ = strconv.Atoi(name)
	}
	return idx
}

// Sockets tracks open descriptors. The status found under the read lock is
// used for fields that never change after creation, and the descriptor's
// entry is deleted by key, which stays right whatever happened meanwhile.
// Silent.
type Socket struct {
	family, kind int
	closed       bool
}

type Sockets struct {
	mu    sync.RWMutex
	byFD  map[int]*Socket
	count map[int]int
}

func (s *Sockets) lookup(fd int) *Socket {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.byFD[fd]
}

func (s *Sockets) addLocked(fd, family, kind int) {
	s.byFD[fd] = &Socket{family: family, kind: kind}
	s.count[family]++
}

func (s *Sockets) Accept(fd, nfd int) {
	so := s.lookup(fd)
	if so == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.addLocked(nfd, so.family, so.kind)
}

func (s *Sockets) Close(fd int) {
	so := s.lookup(fd)
	if so == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.byFD, fd)
}

// Files hands out bases; AddFile re-validates the base under its own lock
// and refuses a stale one. Silent.
type Files struct {
	mu   sync.RWMutex
	base int
	ends []int
}

func (f *Files) Base() int {
	f.mu.RLock()
	defer f.mu.RUnlock()
	return f.base
}

func (f *Files) AddFile(base, size int) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if base < f.base {
		return false
	}
	f.base = base + size + 1
	f.ends = append(f.ends, f.base)
	return true
}

func (f *Files) Add(size int) bool {
	return f.AddFile(f.Base(), size)
}

// Touch updates an entry it found under the read lock; if the entry was
// removed in between, the write resurrects it.
type Leases struct {
	mu     sync.RWMutex
	expiry map[string]int64
}

func (l *Leases) Touch(id string, now int64) bool {
	l.mu.RLock()
	_, ok := l.expiry[id]
	l.mu.RUnlock()
	if !ok {
		return false
	}
	l.mu.Lock() // want `l.mu is locked again for writing after RUnlock: the write is decided by l.expiry\[id\], read under the read lock`
	l.expiry[id] = now + 30
	l.mu.Unlock()
	return true
}

// Inc goes through a getter and a setter: a lost update.
type Counter struct {
	mu sync.RWMutex
	n  map[string]int
}

func (c *Counter) get(k string) int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.n[k]
}

func (c *Counter) set(k string, v int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n[k] = v
}

func (c *Counter) Inc(k string) {
	c.set(k, c.get(k)+1) // want `c.mu is locked again for writing by c.set after RUnlock: the value written derives from c.get\(k\)`
}

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

// Log is owned by one goroutine that appends; readers take the lock to see
// a consistent pair. Field setters through helpers are how such an owner
// publishes; they are not reported.
type Log struct {
	mu        sync.Mutex
	lastIndex uint64
	lastTerm  uint64
}

func (l *Log) last() (uint64, uint64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.lastIndex, l.lastTerm
}

func (l *Log) setLast(index, term uint64) {
	l.mu.Lock()
	l.lastIndex, l.lastTerm = index, term
	l.mu.Unlock()
}

func (l *Log) Append(n int, term uint64) {
	index, _ := l.last()
	if n > 0 {
		l.setLast(index+uint64(n), term)
	}
}

// Streams looks a stream up through a comma-ok helper, then closes it
// through a helper that re-checks before deleting. Silent.
type Stream struct{ id uint32 }

type Streams struct {
	mu     sync.Mutex
	active map[uint32]*Stream
	idle   bool
}

func (s *Streams) get(id uint32) (*Stream, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	st, ok := s.active[id]
	return st, ok
}

func (s *Streams) remove(st *Stream) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.active[st.id]; ok {
		delete(s.active, st.id)
		if len(s.active) == 0 {
			s.idle = true
		}
	}
}

func (s *Streams) Reset(id uint32) {
	st, ok := s.get(id)
	if !ok {
		return
	}
	s.remove(st)
}

// Leases: an error from the creating helper is an outcome, not a missing
// entry; the later helper re-checks and reports a vanished lease. Silent.
type Lease struct{ items []string }

type Leases2 struct {
	mu     sync.Mutex
	leases map[int]*Lease
}

var errExists = errorString("lease exists")
var errNotFound = errorString("lease not found")

type errorString string

func (e errorString) Error() string { return string(e) }

func (ls *Leases2) Grant(id int) (*Lease, error) {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	if _, ok := ls.leases[id]; ok {
		return nil, errExists
	}
	l := &Lease{}
	ls.leases[id] = l
	return l, nil
}

func (ls *Leases2) Attach(id int, item string) error {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	l := ls.leases[id]
	if l == nil {
		return errNotFound
	}
	l.items = append(l.items, item)
	return nil
}

func (ls *Leases2) GrantAndAttach(id int, item string) error {
	if _, err := ls.Grant(id); err != nil {
		return err
	}
	return ls.Attach(id, item)
}

// Switcher clears a pending entry only if it is still there; removing is
// right whatever happened in between. Silent.
type Switcher struct {
	mu      sync.Mutex
	current *Stream
	pending *Stream
}

func (w *Switcher) latest() *Stream {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.pending != nil {
		return w.pending
	}
	return w.current
}

func (w *Switcher) switchTo(s *Stream, ok bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.current == nil {
		w.current = s
	} else {
		w.pending = s
	}
	if !ok {
		if w.pending != nil {
			w.pending = nil
		} else {
			w.current = nil
		}
	}
}

func (w *Switcher) Update(s *Stream, valid bool) {
	if w.latest() == nil {
		w.switchTo(s, valid)
	}
}

// Refresher re-checks freshness in a helper that runs under the caller's
// write lock: a double check split over two functions. Silent.
type Transport struct{ gen int }

type Refresher struct {
	mu      sync.RWMutex
	tr      *Transport
	checked int64
	ttl     int64
}

func (h *Refresher) fresh(now int64) *Transport {
	h.mu.RLock()
	defer h.mu.RUnlock()
	if now-h.checked < h.ttl {
		return h.tr
	}
	return nil
}

func (h *Refresher) refreshLocked(now int64) *Transport {
	if now-h.checked < h.ttl {
		return h.tr
	}
	h.tr = &Transport{gen: int(now)}
	h.checked = now
	return h.tr
}

func (h *Refresher) Get(now int64) *Transport {
	if tr := h.fresh(now); tr != nil {
		return tr
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.refreshLocked(now)
}

// Reply clears a field that is set once and only ever cleared afterwards:
// if another goroutine cleared it in between, clearing again is a no-op.
// Silent.
type Reply struct {
	mu    sync.RWMutex
	route *Stream
}

func (r *Reply) Done() {
	r.mu.RLock()
	route := r.route
	r.mu.RUnlock()
	if route == nil {
		return
	}
	r.mu.Lock()
	r.route = nil
	r.mu.Unlock()
}

// Asker clears a reply route through the entry it found under the read
// lock; if the entry was removed meanwhile the clear lands on an orphan,
// which nobody reads. Silent.
type Asker struct {
	mu      sync.RWMutex
	pending map[string]*Reply
}

func (a *Asker) Answered(id string) {
	a.mu.RLock()
	r := a.pending[id]
	a.mu.RUnlock()
	if r == nil {
		return
	}
	a.mu.Lock()
	r.route = nil
	a.mu.Unlock()
}

package checkthenact

import (
	"fmt"
	"sync"
)

type state int

const (
	pending state = iota
	running
	done
)

// Task is claimed: the first section moves pending to running, so the
// second section may rely on owning it.
type Task struct {
	mu     sync.Mutex
	state  state
	result string
}

func (t *Task) Run(work func() string) bool {
	t.mu.Lock()
	if t.state != pending {
		t.mu.Unlock()
		return false
	}
	t.state = running
	t.mu.Unlock()

	out := work()

	t.mu.Lock()
	t.state = done
	t.result = out
	t.mu.Unlock()
	return true
}

// Group is a singleflight: the in-flight call is inserted in the first
// section and deleted in the last.
type call struct {
	wg  sync.WaitGroup
	val string
}

type Group struct {
	mu    sync.Mutex
	calls map[string]*call
}

func (g *Group) Do(key string, fn func() string) string {
	g.mu.Lock()
	if c, ok := g.calls[key]; ok {
		g.mu.Unlock()
		c.wg.Wait()
		return c.val
	}
	c := &call{}
	c.wg.Add(1)
	g.calls[key] = c
	g.mu.Unlock()

	c.val = fn()
	c.wg.Done()

	g.mu.Lock()
	delete(g.calls, key)
	g.mu.Unlock()
	return c.val
}

// Versioned re-validates by generation.
type Config struct {
	mu   sync.Mutex
	gen  uint64
	data map[string]string
}

func (c *Config) Rebuild(build func(map[string]string) map[string]string) bool {
	c.mu.Lock()
	gen, snapshot := c.gen, c.data
	c.mu.Unlock()
	next := build(snapshot)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.gen != gen {
		return false
	}
	c.data = next
	c.gen++
	return true
}

// KeyLocks serialises per key; process is only ever called with the key's
// lock held, which covers both of its sections of s.mu.
type Store struct {
	mu     sync.Mutex
	counts map[string]int
	keys   map[string]*sync.Mutex
}

func (s *Store) keyLock(k string) *sync.Mutex {
	s.mu.Lock()
	defer s.mu.Unlock()
	l := s.keys[k]
	if l == nil {
		l = new(sync.Mutex)
		s.keys[k] = l
	}
	return l
}

func (s *Store) Handle(k string) {
	l := s.keyLock(k)
	l.Lock()
	defer l.Unlock()
	s.process(k)
}

func (s *Store) process(k string) {
	s.mu.Lock()
	n := s.counts[k]
	s.mu.Unlock()
	n++
	s.mu.Lock()
	s.counts[k] = n
	s.mu.Unlock()
}

// Mailbox takes the pending batch and leaves nil behind: the batch now
// belongs to this caller, whatever later sections do. Silent.
type Mailbox struct {
	mu      sync.Mutex
	pending []string
	sent    int
}

func (m *Mailbox) Flush(send func(string) bool) {
	m.mu.Lock()
	batch := m.pending
	m.pending = nil
	m.mu.Unlock()

	var retry []string
	for _, msg := range batch {
		if !send(msg) {
			retry = append(retry, msg)
		}
	}
	m.mu.Lock()
	m.pending = append(m.pending, retry...)
	m.sent += len(batch) - len(retry)
	m.mu.Unlock()
}

// Conns limits open connections. Under the limit, the first section
// reserves a slot by counting it before dialing; at the limit, it
// registers a waiter that later sections remove. Both act on the decision
// inside the section that took it. Silent.
type Conns struct {
	mu      sync.Mutex
	open    int
	max     int
	waiters map[int]chan struct{}
	nextID  int
	dropped int
}

func (c *Conns) Get(dial func() error, wait func(chan struct{}) bool) error {
	c.mu.Lock()
	if c.max > 0 && c.open >= c.max {
		ch := make(chan struct{}, 1)
		id := c.nextID
		c.nextID++
		c.waiters[id] = ch
		c.mu.Unlock()
		if !wait(ch) {
			c.mu.Lock()
			delete(c.waiters, id)
			c.mu.Unlock()
		}
		return nil
	}
	c.open++
	c.mu.Unlock()
	if err := dial(); err != nil {
		c.mu.Lock()
		c.open--
		c.mu.Unlock()
		return err
	}
	return nil
}

// Cwd caches a hint: an empty cache means "compute it", and the value
// computed is a plain string; racing callers store the same thing. Silent.
type Cwd struct {
	mu  sync.Mutex
	dir string
}

func (c *Cwd) Get(compute func() string, valid func(string) bool) string {
	c.mu.Lock()
	dir := c.dir
	c.mu.Unlock()
	if len(dir) > 0 && valid(dir) {
		return dir
	}
	dir = compute()
	c.mu.Lock()
	c.dir = dir
	c.mu.Unlock()
	return dir
}

// Hooks swaps a hook in and later puts the saved one back: a deliberate
// restore of the value read, not an update. Silent.
type Hooks struct {
	mu     sync.Mutex
	onSave func()
}

func (h *Hooks) WithHook(fake func(), run func()) {
	h.mu.Lock()
	orig := h.onSave
	h.onSave = fake
	h.mu.Unlock()
	run()
	h.mu.Lock()
	h.onSave = orig
	h.mu.Unlock()
}

// Cluster is created once, when clustering starts, and never replaced: a
// pointer to it read in one section is the current one in the next.
// Silent.
type cluster struct{ peers map[string]bool }

type Node struct {
	mu      sync.Mutex
	cluster *cluster
}

func (n *Node) StartClustering() {
	n.mu.Lock()
	n.cluster = &cluster{peers: map[string]bool{}}
	n.mu.Unlock()
}

func (n *Node) Stop() {
	n.mu.Lock()
	n.cluster = nil
	n.mu.Unlock()
}

func (n *Node) Join(peer string, check func(string) bool) {
	n.mu.Lock()
	cc := n.cluster
	n.mu.Unlock()
	if cc == nil || !check(peer) {
		return
	}
	n.mu.Lock()
	cc.peers[peer] = true
	n.mu.Unlock()
}

// Flusher waits for room with its lock held; the helper drops and retakes
// the caller's lock while it waits, which opens no new section of the
// caller's. Silent.
type Flusher struct {
	mu      sync.Mutex
	full    bool
	pending []string
	room    *sync.Cond
}

func (f *Flusher) waitForRoomLocked() error {
	for f.full {
		f.mu.Unlock()
		f.room.Wait()
		f.mu.Lock()
	}
	return nil
}

func (f *Flusher) Add(s string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.waitForRoomLocked(); err != nil {
		return err
	}
	f.pending = append(f.pending, s)
	return nil
}

// Imports: add registers a new import and returns it; the caller then
// patches the object it just created. Nothing it read is stale. Silent.
type Import struct {
	name   string
	shared bool
}

type Imports struct {
	mu     sync.Mutex
	byName map[string]*Import
}

func (r *Imports) add(name string) *Import {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.byName[name]; ok {
		return nil
	}
	imp := &Import{name: name}
	r.byName[name] = imp
	return imp
}

func (r *Imports) AddShared(name string) {
	imp := r.add(name)
	if imp == nil {
		return
	}
	r.mu.Lock()
	imp.shared = true
	r.mu.Unlock()
}

// WithWrappedHook wraps the saved hook in a closure (so the saved value
// lives in a captured variable) and restores it afterwards. Silent.
func (h *Hooks) WithWrappedHook(count func(), run func()) {
	h.mu.Lock()
	orig := h.onSave
	h.onSave = func() { count(); orig() }
	h.mu.Unlock()
	run()
	h.mu.Lock()
	h.onSave = orig
	h.mu.Unlock()
}

// FailingOnce returns a helper that swaps the hook of a captured object
// for a failing one around fn, and puts it back. Silent.
func FailingOnce(h *Hooks, fail func()) func(fn func()) {
	return func(fn func()) {
		h.mu.Lock()
		prev := h.onSave
		h.onSave = fail
		h.mu.Unlock()
		fn()
		h.mu.Lock()
		h.onSave = prev
		h.mu.Unlock()
	}
}

// addLike registers a new import configured from the default one; the
// object it returns is new, whatever it was filled from, so patching it
// later goes through no stale pointer. Silent.
func (r *Imports) addLike(name string) *Import {
	r.mu.Lock()
	defer r.mu.Unlock()
	base := r.byName["default"]
	imp := &Import{name: name, shared: base != nil && base.shared}
	r.byName[name] = imp
	return imp
}

func (r *Imports) AddLike(name string) {
	imp := r.addLike(name)
	r.mu.Lock()
	imp.shared = true
	r.mu.Unlock()
}

// addFrom registers a new import configured like tmpl and announces it;
// the error of the announcement is built from the new import, so it
// carries what the helper read under the lock, but the import returned
// beside it is new. Patching it later is silent.
func (r *Imports) addFrom(name string, tmpl *Import, announce func(*Import) error) (*Import, error) {
	r.mu.Lock()
	imp := &Import{name: name}
	if tmpl != nil {
		imp.shared = tmpl.shared
	}
	r.byName[name] = imp
	r.mu.Unlock()
	if err := announce(imp); err != nil {
		return nil, fmt.Errorf("announcing %s: %w", name, err)
	}
	return imp, nil
}

func (r *Imports) AddSharedFrom(name string, tmpl *Import, announce func(*Import) error) error {
	imp, err := r.addFrom(name, tmpl, announce)
	if err != nil {
		return err
	}
	r.mu.Lock()
	imp.shared = true
	r.mu.Unlock()
	return nil
}

// HandleAll takes the key's lock and hands over to a helper that holds no
// lock itself; the helper's callee, two calls below the lock, is still
// only ever run under it. Silent.
func (s *Store) HandleAll(keys []string) {
	for _, k := range keys {
		l := s.keyLock(k)
		l.Lock()
		s.handleLocked(k)
		l.Unlock()
	}
}

func (s *Store) handleLocked(k string) {
	if k != "" {
		s.bump(k)
	}
}

func (s *Store) bump(k string) {
	s.mu.Lock()
	n := s.counts[k]
	s.mu.Unlock()
	s.mu.Lock()
	s.counts[k] = n + 1
	s.mu.Unlock()
}

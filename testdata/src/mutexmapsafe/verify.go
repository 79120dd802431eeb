// Package mutexmapsafe holds correct code around sync.Maps that must stay
// silent: lockers that verify what they locked, maps of objects (not
// locks) that are deleted from, and keys of matching types.
package mutexmapsafe

import (
	"net"
	"sync"
	"sync/atomic"
)

// JobLocks may delete an entry because every locker, once it holds the
// mutex, checks that the map still maps the key to that very mutex and
// starts over otherwise; the entry is removed only while held.
type JobLocks struct {
	m sync.Map // string -> *sync.Mutex
}

func (j *JobLocks) Lock(job string) *sync.Mutex {
	for {
		v, _ := j.m.LoadOrStore(job, new(sync.Mutex))
		mu := v.(*sync.Mutex)
		mu.Lock()
		if cur, ok := j.m.Load(job); ok && cur == v {
			return mu
		}
		mu.Unlock() // removed while we waited: try the current one
	}
}

// Finish removes the entry while still holding it: a waiter wakes up, sees
// the entry gone, and retries on a fresh one; nobody proceeds on the old.
func (j *JobLocks) Finish(job string, mu *sync.Mutex) {
	j.m.CompareAndDelete(job, mu)
	mu.Unlock()
}

func (j *JobLocks) Run(job string, f func()) {
	mu := j.Lock(job)
	defer j.Finish(job, mu)
	f()
}

// TenantLocks verifies with a comparison of the asserted mutex and
// deletes under a deferred unlock.
type TenantLocks struct {
	m sync.Map
}

func (t *TenantLocks) acquire(tenant int64) *sync.RWMutex {
	for {
		actual, _ := t.m.LoadOrStore(tenant, &sync.RWMutex{})
		l := actual.(*sync.RWMutex)
		l.Lock()
		now, ok := t.m.Load(tenant)
		if ok && now.(*sync.RWMutex) == l {
			return l
		}
		l.Unlock()
	}
}

func (t *TenantLocks) Purge(tenant int64, purge func()) {
	l := t.acquire(tenant)
	defer l.Unlock()
	purge()
	t.m.Delete(tenant)
}

// Conns is a map of connections. Each has a lock for its own write
// buffer; removing a closed connection is how the map is meant to be used.
type conn struct {
	mu  sync.Mutex
	c   net.Conn
	buf []byte
}

type Conns struct {
	byAddr sync.Map // string -> *conn
	open   atomic.Int64
}

func (cs *Conns) Add(addr string, c net.Conn) {
	cs.byAddr.Store(addr, &conn{c: c})
	cs.open.Add(1)
}

func (cs *Conns) Write(addr string, p []byte) {
	v, ok := cs.byAddr.Load(addr)
	if !ok {
		return
	}
	c := v.(*conn)
	c.mu.Lock()
	c.buf = append(c.buf, p...)
	c.mu.Unlock()
}

func (cs *Conns) Close(addr string) {
	if v, ok := cs.byAddr.LoadAndDelete(addr); ok {
		v.(*conn).c.Close()
		cs.open.Add(-1)
	}
}

// Results memoises computations; forgetting one is a cache eviction.
type Results struct {
	m sync.Map // uint32 -> []byte
}

func (r *Results) Put(id uint32, b []byte) { r.m.Store(id, b) }

func (r *Results) Get(id uint32) ([]byte, bool) {
	v, ok := r.m.Load(id)
	if !ok {
		return nil, false
	}
	return v.([]byte), true
}

func (r *Results) Evict(id uint32) { r.m.Delete(id) }

func (r *Results) Reset() { r.m.Clear() }

// loadData guards its own sums: it locks itself in its methods. A map of
// them is a map of objects, and dropping one after a report is ordinary
// (the shape of a load-reporting store).
type loadData struct {
	mu    sync.Mutex
	sum   float64
	count uint64
}

func (l *loadData) add(v float64) {
	l.mu.Lock()
	l.sum += v
	l.count++
	l.mu.Unlock()
}

type Loads struct {
	byName sync.Map // string -> *loadData
}

func (ls *Loads) Add(name string, v float64) {
	d, ok := ls.byName.Load(name)
	if !ok {
		d, _ = ls.byName.LoadOrStore(name, &loadData{})
	}
	d.(*loadData).add(v)
}

func (ls *Loads) Drop(name string) { ls.byName.Delete(name) }

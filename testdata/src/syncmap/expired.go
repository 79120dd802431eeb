package syncmap

import (
	"sync"
	"sync/atomic"
	"time"
)

// Tokens keeps issued tokens by ID; Issue stores a fresh token under an
// ID again once the old one has expired.
type Tokens struct {
	byID    sync.Map // string -> *token
	revoked func(id string)
}

type token struct {
	id      string
	expires time.Time
}

func (t *token) expired(now time.Time) bool { return now.After(t.expires) }

func (ts *Tokens) Issue(id string, ttl time.Duration) {
	ts.byID.Store(id, &token{id: id, expires: time.Now().Add(ttl)})
}

// Reap finds the token expired, tells the revocation hook, then deletes
// the ID: a token issued again in between is deleted with it. A known
// miss: only the existence test (ok) is followed, and "there, so delete
// it" is idempotent; asking the token (v.(*token).expired(now)) is the
// same. Reporting a test of what the entry holds was tried and reverted
// (corpus/README.md): in real code half of such entries were keyed by
// random IDs never stored again, or touched by one goroutine.
func (ts *Tokens) Reap(id string, now time.Time) {
	v, ok := ts.byID.Load(id)
	if !ok || !v.(*token).expires.Before(now) {
		return
	}
	ts.revoked(id)
	ts.byID.Delete(id)
}

// ReapSeen deletes only the token it found expired: silent.
func (ts *Tokens) ReapSeen(id string, now time.Time) {
	v, ok := ts.byID.Load(id)
	if !ok || !v.(*token).expired(now) {
		return
	}
	ts.revoked(id)
	ts.byID.CompareAndDelete(id, v)
}

// Forget deletes an ID because it is there, whatever it holds: a token
// issued in between goes too, as it would had Forget come a moment
// later (removal by existence is idempotent): silent.
func (ts *Tokens) Forget(id string) {
	if _, ok := ts.byID.Load(id); !ok {
		return
	}
	ts.revoked(id)
	ts.byID.Delete(id)
}

// Leased keeps leases in a plain map under a mutex, and reaps one found
// expired in an earlier section.
type Leased struct {
	mu     sync.Mutex
	leases map[string]*token
	closed func(id string)
}

func (l *Leased) Grant(id string, ttl time.Duration) {
	l.mu.Lock()
	l.leases[id] = &token{id: id, expires: time.Now().Add(ttl)}
	l.mu.Unlock()
}

// Reap is Tokens.Reap under a mutex: the same known miss.
func (l *Leased) Reap(id string, now time.Time) {
	l.mu.Lock()
	t := l.leases[id]
	l.mu.Unlock()
	if t == nil || !t.expired(now) {
		return
	}
	l.closed(id)
	l.mu.Lock()
	delete(l.leases, id)
	l.mu.Unlock()
}

// ReapChecked looks again in the second section: silent.
func (l *Leased) ReapChecked(id string, now time.Time) {
	l.mu.Lock()
	t := l.leases[id]
	l.mu.Unlock()
	if t == nil || !t.expired(now) {
		return
	}
	l.closed(id)
	l.mu.Lock()
	if l.leases[id] == t {
		delete(l.leases, id)
	}
	l.mu.Unlock()
}

// InFlight counts requests per upstream and drops an upstream's counter
// when it falls to zero; a request starting in between takes the same
// counter (LoadOrStore), adds to it, and loses its count when the entry
// is deleted under it. A known miss, as Reap (caddy's reverse proxy has
// this shape).
type InFlight struct {
	byUpstream sync.Map // string -> *atomic.Int64
}

func (f *InFlight) Start(upstream string) {
	v, _ := f.byUpstream.LoadOrStore(upstream, new(atomic.Int64))
	v.(*atomic.Int64).Add(1)
}

func (f *InFlight) Done(upstream string) {
	if v, ok := f.byUpstream.Load(upstream); ok {
		if v.(*atomic.Int64).Add(-1) <= 0 {
			f.byUpstream.Delete(upstream)
		}
	}
}

// Endpoints retires an endpoint by winning its own flag first: only the
// winner deletes, the flag is never cleared, and endpoints are only ever
// added where missing. Silent.
type Endpoints struct {
	byAddr sync.Map // string -> *endpoint
}

type endpoint struct{ retired atomic.Bool }

func (e *Endpoints) Ensure(addr string) {
	e.byAddr.LoadOrStore(addr, new(endpoint))
}

func (e *Endpoints) Retire(addr string) {
	if v, ok := e.byAddr.Load(addr); ok && v.(*endpoint).retired.CompareAndSwap(false, true) {
		e.byAddr.Delete(addr)
	}
}

package lazyinitfix

import "sync"

// No fix where the caller's own value is handed on or used after the
// store: after the fix it would be the racer's entry.

type Counter struct{ n int }

func (c *Counter) Add(n int) { c.n += n }

type Counters struct {
	mu     sync.RWMutex
	byCode map[int]*Counter
}

// Count counts on its new counter before storing it: keeping the
// racer's counter instead would lose this count.
func (c *Counters) Count(code int) {
	c.mu.RLock()
	ctr, ok := c.byCode[code]
	c.mu.RUnlock()
	if ok {
		ctr.Add(1)
		return
	}
	ctr = &Counter{}
	ctr.Add(1)
	c.mu.Lock() // want `c.mu is locked again for writing after RUnlock: ctr was missing`
	c.byCode[code] = ctr
	c.mu.Unlock()
}

type Worker struct{ id string }

func (w *Worker) Run() {}

type Pool struct {
	mu      sync.RWMutex
	workers map[string]*Worker
}

// Start starts the worker it stored: with the racer's entry kept, that
// one would be started twice.
func (p *Pool) Start(id string) *Worker {
	p.mu.RLock()
	if w, ok := p.workers[id]; ok {
		p.mu.RUnlock()
		return w
	}
	p.mu.RUnlock()
	w := &Worker{id: id}
	p.mu.Lock() // want `p.mu is locked again for writing after RUnlock: w was missing`
	p.workers[id] = w
	p.mu.Unlock()
	go w.Run()
	return w
}

func canonical(id string) string { return id }

// Canonical computes its key with a call: the fix would call it again
// under the lock.
func (p *Pool) Canonical(id string) *Worker {
	p.mu.RLock()
	if w, ok := p.workers[canonical(id)]; ok {
		p.mu.RUnlock()
		return w
	}
	p.mu.RUnlock()
	w := &Worker{id: id}
	p.mu.Lock() // want `p.mu is locked again for writing after RUnlock: w was missing`
	p.workers[canonical(id)] = w
	p.mu.Unlock()
	return w
}

type token struct {
	value   string
	expires int64
}

// Tokens refreshes an entry that has expired as well as a missing one:
// keeping the entry found would keep the expired token, so no fix.
type Tokens struct {
	mu    sync.RWMutex
	byKey map[string]*token
}

func (t *Tokens) Get(key string, now int64) *token {
	t.mu.RLock()
	if tok, ok := t.byKey[key]; ok && tok.expires > now {
		t.mu.RUnlock()
		return tok
	}
	t.mu.RUnlock()
	tok := &token{value: key, expires: now + 60}
	t.mu.Lock() // want `t.mu is locked again for writing after RUnlock: tok was missing or stale`
	t.byKey[key] = tok
	t.mu.Unlock()
	return tok
}

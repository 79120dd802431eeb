package lazyinitfix

import (
	"errors"
	"log"
	"sync"
	"sync/atomic"
)

// No fix where the caller's own value is handed on or used after the
// store (after the fix it would be the racer's entry), nor where it is
// not used after the store at all (the caller would go on as if it had
// stored it).

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

type claim struct{ owner string }

var errClaimed = errors.New("job claimed")

// Jobs.Claim stores a claim it does not use again and reports success:
// keeping the claim a racer stored would skip the store and report
// success on a job another owns.
type Jobs struct {
	mu     sync.RWMutex
	claims map[string]*claim
}

func (j *Jobs) Claim(job, owner string) error {
	j.mu.RLock()
	_, taken := j.claims[job]
	j.mu.RUnlock()
	if taken {
		log.Printf("job %s already claimed", job)
		return errClaimed
	}
	cl := &claim{owner: owner}
	j.mu.Lock() // want `j.mu is locked again for writing after RUnlock: j.claims\[job\] was missing`
	j.claims[job] = cl
	j.mu.Unlock()
	return nil
}

// Leases.Take answers false when the lease is held and true once it has
// taken it: constants both ways, but not the same, so keeping a racer's
// lease and answering true would be a conflict reported as success. (A
// refusal counts itself, so the lookup is not simply repeated either.)
type lease struct{ holder string }

type Leases struct {
	mu       sync.RWMutex
	byName   map[string]*lease
	waiting  map[string]bool
	refusals atomic.Int64
}

func (l *Leases) Take(name, holder string) bool {
	l.mu.RLock()
	_, held := l.byName[name]
	l.mu.RUnlock()
	if held {
		l.refusals.Add(1)
		return false
	}
	queued, held := l.waiting[name]
	if queued && held {
		return false
	}
	ls := &lease{holder: holder}
	l.mu.Lock() // want `l.mu is locked again for writing after RUnlock: l.byName\[name\] was missing`
	defer l.mu.Unlock()
	l.byName[name] = ls
	return true
}

// Holders.Take records the caller's name and answers with it: a claim.
// Keeping a racer's entry would answer with the racer's name and true,
// a conflict reported as success, so no fix.
type Holders struct {
	mu       sync.RWMutex
	byDoor   map[string]string
	refusals atomic.Int64
}

func (h *Holders) Take(door, who string) (string, bool) {
	h.mu.RLock()
	_, held := h.byDoor[door]
	h.mu.RUnlock()
	if held {
		h.refusals.Add(1)
		return "", false
	}
	h.mu.Lock() // want `h.mu is locked again for writing after RUnlock: h.byDoor\[door\] was missing under the read lock, but another goroutine may have claimed it`
	defer h.mu.Unlock()
	h.byDoor[door] = who
	return who, true
}

package checkthenact

import "sync"

// A rate table whose refill holds its mutex and calls the locking total:
// sync.Mutex is not reentrant, so the refill never returns. The locked
// variant (totalLocked) is what the refill should call, as Drain does.

type rates struct {
	mu      sync.Mutex
	buckets map[string]int
}

func (r *rates) total() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.totalLocked()
}

func (r *rates) totalLocked() int {
	n := 0
	for _, b := range r.buckets {
		n += b
	}
	return n
}

func (r *rates) Refill(name string, limit int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.total() < limit { // want `r.mu is held here and r.total locks it again: sync.Mutex is not reentrant, so the call never returns; call a variant that expects the lock held, or unlock before the call`
		r.buckets[name]++
	}
}

func (r *rates) Drain(name string, limit int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.totalLocked() > limit {
		r.buckets[name] = 0
	}
}

// Audit unlocks before it asks for the total.
func (r *rates) Audit(name string) int {
	r.mu.Lock()
	n := r.buckets[name]
	r.mu.Unlock()
	return n * r.total()
}

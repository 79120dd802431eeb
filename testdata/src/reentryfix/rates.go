package reentryfix

import "sync"

// A rate table whose refill holds its mutex and calls total, which only
// locks around totalLocked: the fix calls totalLocked instead.

type rates struct {
	mu      sync.Mutex
	buckets map[string]int
	burst   int
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

// burstSize only locks around a field: the caller holding the mutex reads
// the field itself.
func (r *rates) burstSize() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.burst
}

// Top fills a bucket to the burst size.
func (r *rates) Top(name string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.buckets[name] = r.burstSize() // want `r.mu is held here and r.burstSize locks it again`
}

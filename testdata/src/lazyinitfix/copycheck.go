package lazyinitfix

import "sync"

// A double check that tests the copy: the fix reads the field into the
// copy again before the second test.

type Limits struct {
	mu      sync.RWMutex
	maxSize *int
	fetch   func() int
}

func (l *Limits) MaxSize() int {
	l.mu.RLock()
	maxSize := l.maxSize
	l.mu.RUnlock()
	if maxSize != nil {
		return *maxSize
	}
	l.mu.Lock() // want `l.mu is locked again for writing after RUnlock: maxSize, set from l.maxSize under the read lock, is tested again under the write lock`
	defer l.mu.Unlock()
	// Another goroutine may have fetched it meanwhile.
	if maxSize != nil {
		return *maxSize
	}
	n := l.fetch()
	l.maxSize = &n
	return n
}

type Route struct{ host string }

type Routes struct {
	mu     sync.RWMutex
	routes map[string]*Route
}

func (r *Routes) For(host string) *Route {
	r.mu.RLock()
	rt, ok := r.routes[host]
	r.mu.RUnlock()
	if ok {
		return rt
	}
	r.mu.Lock() // want `r.mu is locked again for writing after RUnlock: ok, set from r.routes\[host\] under the read lock, is tested again under the write lock`
	if ok {
		r.mu.Unlock()
		return rt
	}
	rt = &Route{host: host}
	r.routes[host] = rt
	r.mu.Unlock()
	return rt
}

// ForMode re-tests the copy as the first statement of a case.
func (r *Routes) ForMode(host string, strict bool) *Route {
	r.mu.RLock()
	rt := r.routes[host]
	r.mu.RUnlock()
	if rt != nil {
		return rt
	}
	r.mu.Lock() // want `r.mu is locked again for writing after RUnlock: rt, set from r.routes\[host\] under the read lock, is tested again under the write lock`
	defer r.mu.Unlock()
	switch {
	case strict:
		if rt != nil {
			return rt
		}
		rt = &Route{host: host}
		r.routes[host] = rt
	}
	return rt
}

// An overdraft check repeated on the answer of the first section.
type Purse struct {
	mu      sync.RWMutex
	balance int64
}

func (p *Purse) Spend(amount int64) bool {
	p.mu.RLock()
	covered := p.balance >= amount
	p.mu.RUnlock()
	if !covered {
		return false
	}
	p.mu.Lock() // want `p.mu is locked again for writing after RUnlock: covered, set from p.balance >= amount under the read lock, is tested again under the write lock`
	defer p.mu.Unlock()
	if !covered {
		return false
	}
	p.balance -= amount
	return true
}

package checkthenact

import (
	"sync"
	"time"
)

// A resolver cache whose lookup returns named results. With a deferred
// call in the function, the results live in memory: the early return on
// a cache hit stores the cached answer into them, on a path that leaves.

type resolved struct {
	primary, secondary string
	until              time.Time
}

type Resolver struct {
	mu      sync.Mutex
	answers map[string]resolved
	query   func(host string) ([]string, error)
	done    func()
}

func (r *Resolver) fresh(host string) (string, string, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if a, ok := r.answers[host]; ok && time.Now().Before(a.until) {
		return a.primary, a.secondary, true
	}
	return "", "", false
}

func (r *Resolver) any(host string) (string, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	a, ok := r.answers[host]
	return a.primary, ok
}

func (r *Resolver) remember(host, primary, secondary string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.answers[host] = resolved{primary: primary, secondary: secondary, until: time.Now().Add(time.Minute)}
}

// Resolve stores only what the query answered: the cached pair went out
// through the early return, and the loop fills the results afresh from
// their zero values.
func (r *Resolver) Resolve(host string) (primary, secondary string, err error) {
	defer r.done()
	if primary, secondary, ok := r.fresh(host); ok {
		return primary, secondary, nil
	}
	addrs, err := r.query(host)
	if err != nil {
		return "", "", err
	}
	for _, a := range addrs {
		secondary = primary
		primary = a
	}
	r.remember(host, primary, secondary)
	return primary, secondary, nil
}

// Keep falls back to the cached answer when the query fails and stores it
// back: another goroutine's newer answer, stored in between, is replaced
// by the old one.
func (r *Resolver) Keep(host string) (primary string, err error) {
	defer r.done()
	primary, _ = r.any(host)
	addrs, err := r.query(host)
	if err == nil && len(addrs) > 0 {
		primary = addrs[0]
	}
	r.remember(host, primary, "") // want `r.mu is locked again by r.remember after the section that checked: the value written derives from primary`
	return primary, nil
}

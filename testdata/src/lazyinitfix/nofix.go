package lazyinitfix

import "sync"

// ForShadowed tests the copy again inside a block that declares its own
// r: the re-read would mean another map there, so no fix is offered.
func (r *Routes) ForShadowed(host string, routes map[string]*Route) *Route {
	r.mu.RLock()
	rt, ok := r.routes[host]
	r.mu.RUnlock()
	if ok {
		return rt
	}
	r.mu.Lock() // want `r.mu is locked again for writing after RUnlock: ok, set from r.routes\[host\] under the read lock, is tested again under the write lock`
	defer r.mu.Unlock()
	{
		r := routes
		if ok {
			return rt
		}
		_ = r
	}
	rt = &Route{host: host}
	r.routes[host] = rt
	return rt
}

// Hops' getter returns two values that are not a map lookup's: written
// out, they would be one expression.
type Hop struct{ next string }

func (p *Hop) dial() {}

type Hops struct {
	mu    sync.RWMutex
	byDst map[string]*Hop
}

func (h *Hops) hop(dst string) (*Hop, bool) {
	h.mu.RLock()
	defer h.mu.RUnlock()
	r := h.byDst[dst]
	return r, r != nil
}

func (h *Hops) Learn(dst, next string) *Hop {
	if r, ok := h.hop(dst); ok {
		return r
	}
	r := &Hop{next: next}
	h.mu.Lock() // want `h.mu is locked again for writing after RUnlock: r was missing under the read lock`
	h.byDst[dst] = r
	h.mu.Unlock()
	r.dial()
	return r
}

// Digests keys by the first four bytes as an array: the conversion
// panics on a shorter slice, which under the write lock, not deferred,
// would leave it held.
type Digests struct {
	mu   sync.RWMutex
	seen map[[4]byte]bool
	sums [][]byte
}

func (d *Digests) Add(sum []byte) bool {
	d.mu.RLock()
	seen := d.seen[[4]byte(sum)]
	d.mu.RUnlock()
	if seen {
		return false
	}
	d.mu.Lock() // want `d.mu is locked again for writing after RUnlock: the write is decided by seen`
	d.seen[[4]byte(sum)] = true
	d.sums = append(d.sums, sum)
	d.mu.Unlock()
	return true
}

package lostupdate

import "sync"

// A routing table published copy-on-write: readers take the current
// table under the read lock and use it without locking, since a table is
// never changed once published. A writer builds a new table from the
// current one and publishes it. Two writers that both start from the
// same table each publish a copy without the other's route: one route is
// lost, unless the writer checks, under the write lock, that the table
// it copied is still the current one.
type routeTable struct {
	version int
	routes  map[string]string
}

type Router struct {
	mu    sync.RWMutex
	table *routeTable
}

func NewRouter() *Router {
	return &Router{table: &routeTable{routes: map[string]string{}}}
}

func (r *Router) current() *routeTable {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.table
}

func (r *Router) Lookup(host string) string { return r.current().routes[host] }

func withRoute(t *routeTable, host, backend string) *routeTable {
	next := &routeTable{version: t.version + 1, routes: make(map[string]string, len(t.routes)+1)}
	for h, b := range t.routes {
		next.routes[h] = b
	}
	next.routes[host] = backend
	return next
}

// AddRoute copies the table it read under the read lock, outside any
// lock, and publishes the copy.
func (r *Router) AddRoute(host, backend string) {
	r.mu.RLock()
	cur := r.table
	r.mu.RUnlock()
	next := &routeTable{version: cur.version + 1, routes: make(map[string]string, len(cur.routes)+1)}
	for h, b := range cur.routes {
		next.routes[h] = b
	}
	next.routes[host] = backend
	r.mu.Lock() // want `r.mu is locked again for writing after RUnlock: the value written is a copy built from cur, read under the read lock; what another goroutine stored in r.table in between is lost; build the copy under the write lock, or check there that r.table is still the one copied and retry`
	r.table = next
	r.mu.Unlock()
}

// Bump publishes a table with a new version and the same routes.
func (r *Router) Bump() {
	cur := r.current()
	next := &routeTable{version: cur.version + 1, routes: cur.routes}
	r.mu.Lock() // want `r.mu is locked again for writing after RUnlock: the value written is a copy built from cur`
	r.table = next
	r.mu.Unlock()
}

// AddRouteChecked publishes its copy only if the table is still the one
// it copied, and starts again from the new one otherwise. Silent.
func (r *Router) AddRouteChecked(host, backend string) {
	for {
		cur := r.current()
		next := withRoute(cur, host, backend)
		r.mu.Lock()
		if r.table != cur {
			r.mu.Unlock()
			continue
		}
		r.table = next
		r.mu.Unlock()
		return
	}
}

// AddRouteVersioned does the same check by version. Silent.
func (r *Router) AddRouteVersioned(host, backend string) {
	for {
		r.mu.RLock()
		cur := r.table
		r.mu.RUnlock()
		next := &routeTable{version: cur.version + 1, routes: map[string]string{host: backend}}
		for h, b := range cur.routes {
			next.routes[h] = b
		}
		r.mu.Lock()
		if r.table.version != cur.version {
			r.mu.Unlock()
			continue
		}
		r.table = next
		r.mu.Unlock()
		return
	}
}

// Reset publishes an empty table, whatever was there: nothing read
// earlier goes into it. Silent.
func (r *Router) Reset() {
	cur := r.current()
	if len(cur.routes) == 0 {
		return
	}
	r.mu.Lock()
	r.table = &routeTable{routes: map[string]string{}}
	r.mu.Unlock()
}

// A counter bumped by compare-and-retry under a plain lock: the new
// value is stored only if the count is still the one it was computed
// from. Silent.
type Hits struct {
	mu sync.RWMutex
	n  int
}

func (h *Hits) Add(d int) {
	for {
		h.mu.RLock()
		seen := h.n
		h.mu.RUnlock()
		next := seen + d
		h.mu.Lock()
		if h.n != seen {
			h.mu.Unlock()
			continue
		}
		h.n = next
		h.mu.Unlock()
		return
	}
}

// AddOnce tries once and gives up when the count moved: nothing is
// stored from a stale count. Silent.
func (h *Hits) AddOnce(d int) bool {
	h.mu.RLock()
	seen := h.n
	h.mu.RUnlock()
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.n != seen {
		return false
	}
	h.n = seen + d
	return true
}

// AddLoose retries on a test of something else: the count it stores
// may still be stale.
func (h *Hits) AddLoose(d int, ready func() bool) {
	for {
		h.mu.RLock()
		seen := h.n
		h.mu.RUnlock()
		h.mu.Lock() // want `h.mu is locked again for writing after RUnlock: the value written derives from seen`
		if !ready() {
			h.mu.Unlock()
			continue
		}
		h.n = seen + d
		h.mu.Unlock()
		return
	}
}

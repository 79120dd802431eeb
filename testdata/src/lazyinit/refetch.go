package lazyinit

import (
	"maps"
	"sync"
)

// fetchRoutes asks the control plane for the whole routing table.
func fetchRoutes() map[string]string { return map[string]string{"svc": "10.0.0.1:80"} }

// Routes caches the control plane's routing table and fetches all of it
// again when a service is missing.
type Routes struct {
	mu    sync.RWMutex
	table map[string]string
}

// Lookup replaces the whole table with a new one fetched on a miss: the
// decision to refresh holds whatever happened since, and nothing of what
// the read lock saw is written back. Silent.
func (r *Routes) Lookup(svc string) (string, bool) {
	r.mu.RLock()
	addr, ok := r.table[svc]
	r.mu.RUnlock()
	if ok {
		return addr, true
	}
	table := fetchRoutes()
	r.mu.Lock()
	r.table = table
	r.mu.Unlock()
	addr, ok = table[svc]
	return addr, ok
}

// Pin adds one route to a copy of the table taken under the read lock
// and installs the copy: a route added in between is lost.
func (r *Routes) Pin(svc, addr string) {
	r.mu.RLock()
	_, ok := r.table[svc]
	next := maps.Clone(r.table)
	r.mu.RUnlock()
	if ok {
		return
	}
	next[svc] = addr
	r.mu.Lock() // want `r.mu is locked again for writing after RUnlock`
	r.table = next
	r.mu.Unlock()
}

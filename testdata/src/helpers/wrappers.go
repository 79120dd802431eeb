package helpers

import (
	"log"
	"sync"
)

// Quotas is read and written through wrappers: limit and setLimit take no
// lock themselves but call Lookup and Set, which do. What Lookup read
// under its read lock is what limit hands back.
type Quotas struct {
	mu     sync.RWMutex
	limits map[string]int
}

func (q *Quotas) Lookup(tenant string) (int, bool) {
	q.mu.RLock()
	defer q.mu.RUnlock()
	n, ok := q.limits[tenant]
	return n, ok
}

func (q *Quotas) Set(tenant string, n int) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.limits[tenant] = n
}

func (q *Quotas) limit(tenant string) int {
	n, _ := q.Lookup(tenant)
	return n
}

func (q *Quotas) setLimit(tenant string, n int) { q.Set(tenant, n) }

// Raise adds to a limit read through one wrapper and stores it through
// the other: a raise made in between is lost. Reported.
func (q *Quotas) Raise(tenant string, by int) {
	q.setLimit(tenant, q.limit(tenant)+by) // want `q.mu is locked again for writing by q.setLimit after RUnlock: the value written derives from q.limit\(tenant\)`
}

// Halve stores inline what it computed from the wrapper's answer.
// Reported.
func (q *Quotas) Halve(tenant string) {
	n := q.limit(tenant)
	q.mu.Lock() // want `q.mu is locked again for writing after RUnlock: the value written derives from n`
	q.limits[tenant] = n / 2
	q.mu.Unlock()
}

// Reset logs the old limit and stores zero: the write does not depend
// on what the wrapper read. Silent.
func (q *Quotas) Reset(tenant string) {
	log.Printf("quota %s was %d", tenant, q.limit(tenant))
	q.setLimit(tenant, 0)
}

// RaiseIfUnchanged re-reads the limit under the write lock and gives up
// if it moved since. Silent.
func (q *Quotas) RaiseIfUnchanged(tenant string, by int) bool {
	seen := q.limit(tenant)
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.limits[tenant] != seen {
		return false
	}
	q.limits[tenant] = seen + by
	return true
}

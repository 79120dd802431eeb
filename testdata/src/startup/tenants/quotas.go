// Package tenants seeds quotas in a constructor (silent) and admits tenants
// at run time on a stale count (reported).
package tenants

import "sync"

// Quotas keeps a limit per tenant, at most max tenants, behind a plain
// mutex; its helpers lock for themselves.
type Quotas struct {
	mu     sync.Mutex
	max    int
	limits map[string]int
}

type Tenant struct {
	Name  string
	Limit int
}

func (q *Quotas) count() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.limits)
}

func (q *Quotas) set(tenant string, limit int) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.limits[tenant] = limit
}

// NewQuotas seeds the defaults before handing the quotas out: seed's count
// and set cannot be raced.
func NewQuotas(max int, defaults []Tenant) *Quotas {
	q := &Quotas{max: max, limits: map[string]int{}}
	q.seed(defaults)
	return q
}

func (q *Quotas) seed(defaults []Tenant) {
	for _, t := range defaults {
		if q.count() >= q.max {
			return
		}
		q.set(t.Name, t.Limit)
	}
}

// Admit does the same on quotas in use: two callers can both see room for
// one more tenant and both add theirs.
func (q *Quotas) Admit(t Tenant) bool {
	if q.count() >= q.max {
		return false
	}
	q.set(t.Name, t.Limit) // want `q.mu is locked again by q.set after the section that checked`
	return true
}

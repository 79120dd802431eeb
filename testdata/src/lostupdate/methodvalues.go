package lostupdate

import (
	"sync"
	"time"
)

// Quota charges tenants. charge reads and writes a tenant's usage in two
// sections of q.mu; Charge calls it under q.admit, which every other
// charge holds too, so the sections are serialised. Its charge fits the
// charger interface below as Budget's does, but no Quota is ever made
// into an interface value, so no interface call can reach it. Silent.
type Quota struct {
	admit sync.Mutex
	mu    sync.RWMutex
	used  map[string]int
}

func (q *Quota) charge(tenant string, n int) {
	q.mu.RLock()
	used := q.used[tenant]
	q.mu.RUnlock()
	q.mu.Lock()
	q.used[tenant] = used + n
	q.mu.Unlock()
}

func (q *Quota) Charge(tenant string, n int) {
	q.admit.Lock()
	q.charge(tenant, n)
	q.admit.Unlock()
}

// Meter has the same helper and the same locked caller, but it also
// hands the helper out as a method value, run by a ticker goroutine with
// no outer lock: a charge made in the gap is lost. Reported.
type Meter struct {
	admit sync.Mutex
	mu    sync.RWMutex
	used  map[string]int
}

func (m *Meter) charge(tenant string, n int) {
	m.mu.RLock()
	used := m.used[tenant]
	m.mu.RUnlock()
	m.mu.Lock() // want `m.mu is locked again for writing after RUnlock: the value written derives from used, read under the read lock; an update made in between is lost`
	m.used[tenant] = used + n
	m.mu.Unlock()
}

func (m *Meter) Charge(tenant string, n int) {
	m.admit.Lock()
	m.charge(tenant, n)
	m.admit.Unlock()
}

func (m *Meter) Heartbeat(tenant string) {
	tick := m.charge
	go func() {
		for range time.Tick(time.Second) {
			tick(tenant, 1)
		}
	}()
}

// Budget's helper is also reached through an interface of the package's
// own, from a goroutine that holds no outer lock. Reported.
type Budget struct {
	admit sync.Mutex
	mu    sync.RWMutex
	used  map[string]int
}

func (b *Budget) charge(tenant string, n int) {
	b.mu.RLock()
	used := b.used[tenant]
	b.mu.RUnlock()
	b.mu.Lock() // want `b.mu is locked again for writing after RUnlock: the value written derives from used, read under the read lock; an update made in between is lost`
	b.used[tenant] = used + n
	b.mu.Unlock()
}

func (b *Budget) Charge(tenant string, n int) {
	b.admit.Lock()
	b.charge(tenant, n)
	b.admit.Unlock()
}

type charger interface{ charge(tenant string, n int) }

func refund(c charger, tenant string) {
	go c.charge(tenant, -1)
}

func (b *Budget) Cancel(tenant string) { refund(b, tenant) }

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

// Sessions keep their entries in a store the caller configured, or, with
// none, in memory under the memory's own lock. get and set pick one of
// the two; the caller below only runs when a store is configured, so the
// memory's lock is never involved there. Silent (a wrapper that calls
// the locking helper only on some ways is not followed).
type Sessions struct {
	store  SessionStore
	memory *sessionMemory
}

type SessionStore interface {
	Get(key string) string
	Set(key, value string)
}

type sessionMemory struct {
	mu      sync.RWMutex
	entries map[string]string
}

func (m *sessionMemory) Get(key string) string {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.entries[key]
}

func (m *sessionMemory) Set(key, value string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.entries[key] = value
}

func (s *Sessions) get(key string) string {
	if s.store != nil {
		return s.store.Get(key)
	}
	return s.memory.Get(key)
}

func (s *Sessions) set(key, value string) {
	if s.store != nil {
		s.store.Set(key, value)
		return
	}
	s.memory.Set(key, value)
}

// Mirror copies one stored session to another key, in the store.
func (s *Sessions) Mirror(from, to string) {
	if s.store == nil {
		return
	}
	s.set(to, s.get(from))
}

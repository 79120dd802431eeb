package lazyinit

import (
	"sync"
	"time"
)

// Schemas caches what the registry answers for an id, for a while.
type Schemas struct {
	mu      sync.RWMutex
	byID    map[int]*cachedSchema
	ttl     time.Duration
	fetches int
}

type cachedSchema struct {
	text    string
	fetched time.Time
	users   map[string]bool // who asked, for eviction
}

// Lookup refills an entry that is missing or too old: the store replaces
// whatever another caller refilled in between, and the users it recorded
// with it. Reported, and the message says the entry may have been there
// but stale.
func (s *Schemas) Lookup(id int, user string, fetch func(int) string) string {
	s.mu.RLock()
	c, ok := s.byID[id]
	s.mu.RUnlock()
	if ok && time.Since(c.fetched) < s.ttl {
		return c.text
	}
	fresh := &cachedSchema{text: fetch(id), fetched: time.Now(), users: map[string]bool{user: true}}
	s.mu.Lock() // want `s.mu is locked again for writing after RUnlock: c was missing or stale under the read lock, but another goroutine may have stored one since and this store replaces it; look it up again under the write lock and use the one found`
	s.byID[id] = fresh
	s.fetches++
	s.mu.Unlock()
	return fresh.text
}

// LookupFresh does the same but takes the write lock only where the
// entry is missing, and uses what it finds there. Silent.
func (s *Schemas) LookupFresh(id int, user string, fetch func(int) string) string {
	s.mu.RLock()
	c, ok := s.byID[id]
	s.mu.RUnlock()
	if ok && time.Since(c.fetched) < s.ttl {
		return c.text
	}
	fresh := &cachedSchema{text: fetch(id), fetched: time.Now(), users: map[string]bool{user: true}}
	s.mu.Lock()
	defer s.mu.Unlock()
	if c, ok := s.byID[id]; ok && time.Since(c.fetched) < s.ttl {
		c.users[user] = true
		return c.text
	}
	s.byID[id] = fresh
	return fresh.text
}

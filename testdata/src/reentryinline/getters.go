// Package reentryinline holds read locks taken again through getters
// that only lock around one expression: the fix reads the expression
// under the lock the caller holds.
package reentryinline

import "sync"

type key struct{ id string }

// keySet is a set of keys with getters that each take the read lock.
type keySet struct {
	mu   sync.RWMutex
	keys []key
	byID map[string]key
	ttl  int64
}

func (s *keySet) Len() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return len(s.keys)
}

func (s *keySet) Key(i int) key {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.keys[i]
}

func (s *keySet) Lookup(id string) key {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.byID[id]
}

func (s *keySet) Expired(age int64) bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return age > s.ttl
}

// Last reads the length and the last key under one read lock, through
// the getters.
func (s *keySet) Last() (key, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	n := s.Len() // want `s.mu is held for reading here and s.Len takes its read lock again`
	if n == 0 {
		return key{}, false
	}
	return s.Key(n - 1), true // want `s.mu is held for reading here and s.Key takes its read lock again`
}

// First passes a constant for the index.
func (s *keySet) First() (key, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if len(s.keys) == 0 {
		return key{}, false
	}
	return s.Key(0), true // want `s.mu is held for reading here and s.Key takes its read lock again`
}

// Same looks two IDs up: the argument stands for the parameter.
func (s *keySet) Same(a, b string) bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	ka := s.Lookup(a) // want `s.mu is held for reading here and s.Lookup takes its read lock again`
	kb := s.Lookup(b) // want `s.mu is held for reading here and s.Lookup takes its read lock again`
	return ka == kb
}

// Stale tests an age against the TTL: the operand is parenthesised
// where it stands in the getter's expression.
func (s *keySet) Stale(created, now int64) bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if !s.Expired(now - created) { // want `s.mu is held for reading here and s.Expired takes its read lock again`
		return false
	}
	return len(s.keys) > 0
}

// registry holds key sets by name.
type registry struct {
	mu   sync.RWMutex
	sets map[string]*keySet
}

func (r *registry) set(name string) *keySet {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.sets[name]
}

// Has asks for a set through its getter from another getter's caller.
func (r *registry) Has(name string) bool {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.set(name) != nil // want `r.mu is held for reading here and r.set takes its read lock again`
}

// Add and Register are the writers whose Lock, landing between two read
// locks of one reader, hangs both.
func (s *keySet) Add(k key) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.keys = append(s.keys, k)
	s.byID[k.id] = k
}

func (r *registry) Register(name string, s *keySet) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.sets[name] = s
}

// Package keyset is a set of keys safe for concurrent use. Callers often
// make one for a single loop of their own and share it with no one.
package keyset

import (
	"sync"
	"time"
)

type Set struct {
	mu   sync.RWMutex
	keys map[string]time.Time
}

// New returns an empty set.
func New() *Set { return &Set{keys: map[string]time.Time{}} }

func (s *Set) Add(keys ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, k := range keys {
		s.keys[k] = time.Now()
	}
}

func (s *Set) Remove(k string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.keys, k)
}

func (s *Set) Size() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return len(s.keys)
}

// Items lists the keys; a nil set has none.
func (s *Set) Items() []string {
	if s == nil {
		return nil
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]string, 0, len(s.keys))
	for k := range s.keys {
		out = append(out, k)
	}
	return out
}

// ExpireAfter starts a sweeper that drops keys older than ttl: from then
// on the set has a goroutine of its own beside its caller.
func (s *Set) ExpireAfter(ttl time.Duration) {
	go func() {
		for range time.Tick(ttl) {
			s.mu.Lock()
			for k, at := range s.keys {
				if time.Since(at) > ttl {
					delete(s.keys, k)
				}
			}
			s.mu.Unlock()
		}
	}()
}

var watched []*Set

// Watch keeps the set for the package's metrics, read by another
// goroutine.
func (s *Set) Watch() {
	watched = append(watched, s)
}

var shared = New()

// Shared returns the process-wide set, which every caller gets.
func Shared() *Set { return shared }

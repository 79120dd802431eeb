package reentryinline

import "sync"

// A generic set's Union holds the write lock while Has takes the read
// lock again: the call never returns. Has gets a variant for callers
// that hold the lock, with the receiver's type parameters.

type Set[T comparable] struct {
	mu    sync.RWMutex
	items map[T]struct{}
}

func (s *Set[T]) Has(v T) bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	_, ok := s.items[v]
	return ok
}

func (s *Set[T]) Union(vs []T) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	added := 0
	for _, v := range vs {
		if s.Has(v) { // want `s.mu is held for writing here and s.Has takes its read lock: sync.RWMutex is not reentrant`
			continue
		}
		s.items[v] = struct{}{}
		added++
	}
	return added
}

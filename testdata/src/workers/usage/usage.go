// Package usage is a small self-locking table, like the ones a package
// keeps for its readers.
package usage

import "sync"

type Usage struct {
	Key   string
	Bytes int64
	Seen  int64
}

type Store struct {
	mu    sync.RWMutex
	usage map[string]Usage
}

func NewStore() *Store { return &Store{usage: map[string]Usage{}} }

func (s *Store) Get(key string) (Usage, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	u, ok := s.usage[key]
	return u, ok
}

func (s *Store) Add(u Usage) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.usage[u.Key] = u
}

func (s *Store) Delete(key string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.usage, key)
}

func (s *Store) List() []Usage {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]Usage, 0, len(s.usage))
	for _, u := range s.usage {
		out = append(out, u)
	}
	return out
}

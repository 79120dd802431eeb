package checkthenact

import "sync"

// shards hands out one lock per key: not an accessor of one lock, so two
// keys' locks stay apart (silent).
type shards struct {
	locks map[string]*sync.Mutex
	vals  map[string]int
}

func (s *shards) lockFor(k string) *sync.Mutex { return s.locks[k] }

func (s *shards) move(from, to string) {
	a, b := s.lockFor(from), s.lockFor(to)
	a.Lock()
	n := s.vals[from]
	a.Unlock()
	b.Lock()
	s.vals[to] += n
	b.Unlock()
}

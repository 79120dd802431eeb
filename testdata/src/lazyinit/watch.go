package lazyinit

import (
	"errors"
	"sync"
)

// Snapshots keeps the last good answer of a backend per key, so a watcher
// can fall back on it while the backend is down.
type Snapshots struct {
	mu   sync.RWMutex
	last map[string][]byte
}

func (s *Snapshots) lastGood(key string) []byte {
	s.mu.RLock()
	defer s.mu.RUnlock()
	b, ok := s.last[key]
	if !ok {
		return nil
	}
	return append([]byte(nil), b...)
}

func (s *Snapshots) remember(key string, b []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.last[key] = b
}

var errDown = errors.New("backend down")

// Watch polls the backend. On a failure it hands the callback the last
// good copy, which may stop the watch; on a success it stores the fresh
// answer. The copy read on a failure only decides whether the loop goes
// on: the store is reached on a later turn and keeps what the backend
// said, not what the failed turn read.
func (s *Snapshots) Watch(key string, poll func(string) ([]byte, error), f func([]byte) bool) {
	for tries := 0; tries < 100; tries++ {
		b, err := poll(key)
		if err != nil {
			if old := s.lastGood(key); old != nil {
				if !f(old) {
					return
				}
			}
			continue
		}
		s.remember(key, b)
		if !f(b) {
			return
		}
	}
}

// Warm fills the keys the backend has not answered yet, one turn per key:
// the miss and the fill are in the same turn, and a racer's answer stored
// in between is replaced.
func (s *Snapshots) Warm(keys []string, poll func(string) ([]byte, error)) {
	for _, key := range keys {
		if s.lastGood(key) != nil {
			continue
		}
		b, err := poll(key)
		if err != nil {
			continue
		}
		s.remember(key, b) // want `s.mu is locked again for writing by s.remember after RUnlock`
	}
}

// FillFirstMissing looks for a missing key in a loop and fills it after
// the loop: the fill follows the miss, not a later turn.
func (s *Snapshots) FillFirstMissing(keys []string, poll func(string) ([]byte, error)) {
	for _, key := range keys {
		if s.lastGood(key) != nil {
			continue
		}
		b, err := poll(key)
		if err != nil {
			return
		}
		s.remember(key, b) // want `s.mu is locked again for writing by s.remember after RUnlock`
		return
	}
}

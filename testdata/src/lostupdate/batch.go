package lostupdate

import "sync"

// IDSet is a set of series ids.
type IDSet struct {
	sync.RWMutex
	ids map[uint64]bool
}

func (s *IDSet) hasLocked(id uint64) bool { return s.ids[id] }

// AddBatch picks the ids not yet in the set under the read lock, then,
// under the write lock, tests each picked one again before adding it:
// the caller's slice is only marked where a test made under the lock
// held found the id. Silent.
func AddBatch(s *IDSet, ids []uint64) []uint64 {
	var picked []int
	s.RLock()
	for i, id := range ids {
		if s.hasLocked(id) {
			ids[i] = 0
			continue
		}
		picked = append(picked, i)
	}
	s.RUnlock()
	if len(picked) == 0 {
		return ids
	}
	s.Lock()
	defer s.Unlock()
	for _, i := range picked {
		if s.hasLocked(ids[i]) {
			ids[i] = 0
			continue
		}
		s.ids[ids[i]] = true
	}
	return ids
}

package checkthenactfix

import (
	"errors"
	"sync"
)

var errReserved = errors.New("slot reserved")

// Slots records who reserved each slot, through a setter that only locks
// around the store.
type Slots struct {
	mu    sync.Mutex
	taken map[int]string
}

func (s *Slots) put(n int, who string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.taken[n] = who
}

// Reserve leaves inside the section that checks, but stores through put
// in a later one: two callers can both find the slot free. The fix writes
// put out at the call and tests the slot again first.
func (s *Slots) Reserve(n int, who string) error {
	s.mu.Lock()
	if _, ok := s.taken[n]; ok {
		s.mu.Unlock()
		return errReserved
	}
	s.mu.Unlock()
	s.put(n, who) // want `s.mu is locked again by s.put after the section that checked`
	return nil
}

// Rooms counts its members; drop removes one and counts it out.
type Rooms struct {
	mu      sync.Mutex
	members map[string]bool
	count   int
}

func (r *Rooms) drop(name string) {
	r.mu.Lock()
	delete(r.members, name)
	r.count--
	r.mu.Unlock()
}

// Leave finds the member in one section and drops it in another: two
// callers leaving for the same name both count it out. The fix writes
// drop out and tests membership again first.
func (r *Rooms) Leave(name string) bool {
	r.mu.Lock()
	if !r.members[name] {
		r.mu.Unlock()
		return false
	}
	r.mu.Unlock()
	r.drop(name) // want `r.mu is locked again by r.drop after the section that checked`
	return true
}

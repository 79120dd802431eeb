package checkthenact

import "sync"

// A roster of seats: a join reserves a seat with a generation of its own,
// works on it with no lock held, and commits only if the seat still
// carries that generation. A leave in between deletes the seat (or a new
// join reserves it again, with a new generation): the late commit then
// rolls back instead of bringing back what was left.
type seat struct {
	gen   uint64
	peer  string
	ready chan struct{}
}

type Roster struct {
	mu     sync.Mutex
	seats  map[string]seat
	closed bool
	next   uint64
}

// reserved returns the seat as its reservation left it.
func (r *Roster) reserved(name string) seat {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.seats[name]
}

// commit stores s if name's seat still carries s's generation, deciding it
// through a flag as a switch over kinds of reservation would.
func (r *Roster) commit(name string, s seat) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	lost := false
	if cur, ok := r.seats[name]; ok && cur.gen == s.gen {
		s.ready = cur.ready
	} else {
		lost = true
	}
	if lost {
		return false
	}
	if r.closed {
		delete(r.seats, name)
		return false
	}
	r.seats[name] = s
	return true
}

// Join commits the seat it read, the peer filled in: the commit re-checks
// the generation the reservation carried.
func (r *Roster) Join(name, peer string) bool {
	s := r.reserved(name)
	s.peer = peer
	return r.commit(name, s)
}

// commitNewer stores s unless the seat already holds a later generation:
// the newer of the two is kept.
func (r *Roster) commitNewer(name string, s seat) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if cur := r.seats[name]; cur.gen > s.gen {
		return
	}
	r.seats[name] = s
}

func (r *Roster) Rejoin(name, peer string) {
	s := r.reserved(name)
	s.peer = peer
	r.commitNewer(name, s)
}

// commitAt is commit with the generation passed on its own.
func (r *Roster) commitAt(name string, s seat, gen uint64) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	lost := false
	if cur, ok := r.seats[name]; ok && cur.gen == gen {
		s.ready = cur.ready
	} else {
		lost = true
	}
	if lost {
		return false
	}
	r.seats[name] = s
	return true
}

// Takeover hands commitAt a generation of its own making, not the one it
// read: the seat it read may have been left and reserved again since, and
// the commit replaces the new reservation with the old seat's state.
func (r *Roster) Takeover(name, peer string) bool {
	s := r.reserved(name)
	s.peer = peer
	r.mu.Lock()
	r.next++
	gen := r.next
	r.mu.Unlock()
	return r.commitAt(name, s, gen) // want `r.mu is locked again by r.commitAt after the section that checked: the value written derives from s, read in an earlier section`
}

// Resume hands it the generation the reservation carried.
func (r *Roster) Resume(name, peer string) bool {
	s := r.reserved(name)
	s.peer = peer
	return r.commitAt(name, s, s.gen)
}

// commitIfStale writes where the generations differ: the opposite of a
// re-check.
func (r *Roster) commitIfStale(name string, s seat) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if cur := r.seats[name]; cur.gen == s.gen {
		return
	}
	r.seats[name] = s
}

func (r *Roster) Refresh(name, peer string) {
	s := r.reserved(name)
	s.peer = peer
	r.commitIfStale(name, s) // want `r.mu is locked again by r.commitIfStale after the section that checked: the value written derives from s`
}

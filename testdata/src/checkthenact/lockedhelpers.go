package checkthenact

import "sync"

// Squad keeps the members of a team, at most cap of them. Its mutating
// helpers follow the ...Locked convention: the exported wrapper takes the
// lock and hands over to a helper that expects it held.
type Squad struct {
	mu      sync.Mutex
	members map[string]int
	cap     int
}

func (s *Squad) Size() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.members)
}

func (s *Squad) enroll(name string, rank int) {
	s.mu.Lock()
	s.enrollLocked(name, rank)
	s.mu.Unlock()
}

func (s *Squad) enrollLocked(name string, rank int) {
	s.members[name] = rank
}

// Join checks the room through Size and enrolls through a wrapper whose
// write happens in a helper: two joiners that both saw one free seat
// both get in.
func (s *Squad) Join(name string, rank int) bool {
	if s.Size() >= s.cap {
		return false
	}
	s.enroll(name, rank) // want `s.mu is locked again by s.enroll after the section that checked: the write is decided by s.Size\(\), read in an earlier section, which may be stale`
	return true
}

func (s *Squad) enrollIfRoom(name string, rank int) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.members) >= s.cap {
		return false
	}
	s.enrollLocked(name, rank)
	return true
}

// JoinChecked asks first, for a quick answer, and lets the wrapper weigh
// the room again under the lock before enrolling.
func (s *Squad) JoinChecked(name string, rank int) bool {
	if s.Size() >= s.cap {
		return false
	}
	return s.enrollIfRoom(name, rank)
}

// Seats counts the free seats through a helper that expects the lock
// held, and Take fills one through another: the same gap as Join, with
// both sides behind ...Locked helpers.
func (s *Squad) Seats() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.seatsLocked()
}

func (s *Squad) seatsLocked() int { return s.cap - len(s.members) }

func (s *Squad) Take(name string) bool {
	if s.Seats() <= 0 {
		return false
	}
	s.enroll(name, 0) // want `s.mu is locked again by s.enroll after the section that checked: the write is decided by s.Seats\(\), read in an earlier section, which may be stale`
	return true
}

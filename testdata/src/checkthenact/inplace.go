package checkthenact

import "sync"

// Seats checks and books in two closures called in place, each scoping
// its own defer.
type Seats struct {
	mu     sync.Mutex
	booked map[int]string
}

// Book finds the seat free in one closure and books it in another: two
// callers can both find it free and the second overwrites the first.
// Reported.
func (s *Seats) Book(seat int, who string) bool {
	var taken bool
	func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		_, taken = s.booked[seat]
	}()
	if taken {
		return false
	}
	func() {
		s.mu.Lock() // want `s.mu is locked again after the section that checked: the write is decided by s.booked\[seat\], read in an earlier section`
		defer s.mu.Unlock()
		s.booked[seat] = who
	}()
	return true
}

// BookChecked looks again in the second closure. Silent.
func (s *Seats) BookChecked(seat int, who string) bool {
	var taken bool
	func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		_, taken = s.booked[seat]
	}()
	if taken {
		return false
	}
	booked := false
	func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		if _, ok := s.booked[seat]; ok {
			return
		}
		s.booked[seat] = who
		booked = true
	}()
	return booked
}

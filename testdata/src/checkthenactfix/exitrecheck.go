package checkthenactfix

import (
	"errors"
	"sync"
)

// A section that leaves early on its test, under a plain Mutex: the fix
// tests again after the second Lock and leaves the same way.

// Seats hands out numbered seats; a Book that passed the free test may
// find the seat taken when it comes back with the booking made. It must
// then fail as the first section does: keeping the booking found and
// going on would report success on a seat another holds.
type Seats struct {
	mu     sync.Mutex
	holder map[int]*Booking
}

type Booking struct{ user, ref string }

var errTaken = errors.New("seat taken")

func confirm(user string) *Booking { return &Booking{user: user, ref: user + "-1"} }

func (s *Seats) Book(seat int, user string) error {
	s.mu.Lock()
	if _, taken := s.holder[seat]; taken {
		s.mu.Unlock()
		return errTaken
	}
	s.mu.Unlock()
	booking := confirm(user)
	s.mu.Lock() // want `s.mu is locked again after the section that checked: s.holder\[seat\] was missing`
	s.holder[seat] = booking
	s.mu.Unlock()
	return nil
}

// Leader is elected once; the election itself runs outside the lock.
type Leader struct {
	mu      sync.Mutex
	elected bool
	id      string
}

func elect() string { return "n1" }

func (l *Leader) Elect() {
	l.mu.Lock()
	if l.elected {
		l.mu.Unlock()
		return
	}
	l.mu.Unlock()
	id := elect()
	l.mu.Lock() // want `l.mu is locked again after the section that checked: the write is decided by l.elected`
	defer l.mu.Unlock()
	l.id = id
	l.elected = true
}

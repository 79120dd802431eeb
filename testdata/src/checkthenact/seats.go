package checkthenact

import (
	"errors"
	"sync"
)

var ErrTaken = errors.New("seat taken")

// Hall hands out seats through helpers: seatFree reads a seat under the
// lock, assign writes it under the lock. Two guests who both see a seat
// free both get it, the later one's name replacing the first's; the
// inline form (Pool.TakeInline's shape) is reported, but through a
// setter it is not, a known miss: a setter storing what its caller hands
// it after a stale look was, in the corpus, as often an owner publishing
// its state (a lifecycle state, a rate limit set to the configured one,
// a client made lazily by one goroutine) as a claim, and telling the two
// apart needs to know who calls it.
type Hall struct {
	mu    sync.Mutex
	seats []string
	full  bool
}

func (h *Hall) seatFree(n int) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.seats[n] == ""
}

func (h *Hall) assign(n int, guest string) {
	h.mu.Lock()
	h.seats[n] = guest
	h.mu.Unlock()
}

func (h *Hall) Book(n int, guest string) error {
	if !h.seatFree(n) {
		return ErrTaken
	}
	h.assign(n, guest)
	return nil
}

// BookInline is Book written out: reported, and the fix tests the seat
// again where it writes it.
func (h *Hall) BookInline(n int, guest string) error {
	h.mu.Lock()
	free := h.seats[n] == ""
	h.mu.Unlock()
	if !free {
		return ErrTaken
	}
	h.mu.Lock() // want `h.mu is locked again after the section that checked: the write is decided by free`
	h.seats[n] = guest
	h.mu.Unlock()
	return nil
}

// tryAssign tests the seat again where it writes it.
func (h *Hall) tryAssign(n int, guest string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.seats[n] != "" {
		return false
	}
	h.seats[n] = guest
	return true
}

// BookChecked asks first only to fail fast; tryAssign decides. Silent.
func (h *Hall) BookChecked(n int, guest string) error {
	if !h.seatFree(n) {
		return ErrTaken
	}
	if !h.tryAssign(n, guest) {
		return ErrTaken
	}
	return nil
}

func (h *Hall) isFull() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.full
}

func (h *Hall) setFull(v bool) {
	h.mu.Lock()
	h.full = v
	h.mu.Unlock()
}

// Close marks the hall full unless it already is: every racer stores
// the same true. Silent.
func (h *Hall) Close() {
	if h.isFull() {
		return
	}
	h.setFull(true)
}

// Rename moves a guest to the seat's new label, handing the setter what
// was read there: how an owner publishes, not a claim. Silent.
func (h *Hall) Rename(n int, suffix string) {
	if h.seatFree(n) {
		return
	}
	h.assign(n, h.guest(n)+suffix)
}

func (h *Hall) guest(n int) string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.seats[n]
}

// Lounge has one host at a time.
type Lounge struct {
	mu   sync.Mutex
	host *string
}

func (l *Lounge) currentHost() *string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.host
}

func (l *Lounge) setHost(h *string) {
	l.mu.Lock()
	l.host = h
	l.mu.Unlock()
}

// Empty clears the host it found: clearing one cleared since changes
// nothing, as a second delete does not. Silent.
func (l *Lounge) Empty() {
	if l.currentHost() == nil {
		return
	}
	l.setHost(nil)
}

// Greet seats a host where it found none: a host seated since is
// replaced. Through the setter, not reported (Book's known miss).
func (l *Lounge) Greet(name string) {
	if l.currentHost() != nil {
		return
	}
	l.setHost(&name)
}

// Lockers records who holds each locker by name.
type Lockers struct {
	mu     sync.Mutex
	holder map[int]string
}

// Take tests and records in two sections: two callers who both find the
// locker free both get a nil error, and the later name replaces the
// earlier one. Reported.
func (l *Lockers) Take(n int, who string) error {
	l.mu.Lock()
	_, held := l.holder[n]
	l.mu.Unlock()
	if held {
		return ErrTaken
	}
	l.mu.Lock() // want `l.mu is locked again after the section that checked: l.holder\[n\] was missing`
	l.holder[n] = who
	l.mu.Unlock()
	return nil
}

package checkthenact

import (
	"errors"
	"sync"
)

var ErrTaken = errors.New("seat taken")

// Hall hands out seats through helpers: seatFree reads a seat under the
// lock, assign writes it under the lock. Two guests who both see a seat
// free both get it, the later one's name replacing the first's.
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
	h.assign(n, guest) // want `h.mu is locked again by h.assign after the section that checked: the write is decided by h.seatFree\(n\)`
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
// replaced.
func (l *Lounge) Greet(name string) {
	if l.currentHost() != nil {
		return
	}
	l.setHost(&name) // want `l.mu is locked again by l.setHost after the section that checked: l.currentHost\(\) was missing in an earlier section`
}

package checkthenact

import (
	"errors"
	"sync"
)

var (
	errBusy  = errors.New("session in use by another connection")
	errLimit = errors.New("too many unacknowledged messages")
)

// Broker hands each session to one connection at a time: while a
// connection works on a session, the session's id is in busy. The busy set
// is a lock by another name.
type Broker struct {
	mu   sync.Mutex
	busy map[string]struct{}
}

type Session struct {
	id      string
	mu      sync.Mutex
	pending int
	limit   int
	buffer  int
}

func (b *Broker) claim(s *Session) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if _, taken := b.busy[s.id]; taken {
		return errBusy
	}
	b.busy[s.id] = struct{}{}
	return nil
}

func (b *Broker) release(s *Session) {
	b.mu.Lock()
	delete(b.busy, s.id)
	b.mu.Unlock()
}

// reserve checks the budget, does slow work, then books it. It runs only
// with the session claimed, so no one else books in between: silent.
func (s *Session) reserve(n int) error {
	s.mu.Lock()
	pending := s.pending
	s.mu.Unlock()
	if pending+n > s.limit {
		return errLimit
	}
	s.mu.Lock()
	s.pending = pending + n
	s.mu.Unlock()
	return nil
}

// Subscribe claims through a helper.
func (b *Broker) Subscribe(s *Session, n int) error {
	if err := b.claim(s); err != nil {
		return err
	}
	defer b.release(s)
	return s.reserve(n)
}

// Resume claims inline and releases in a deferred closure.
func (b *Broker) Resume(s *Session, n int) error {
	b.mu.Lock()
	if _, taken := b.busy[s.id]; taken {
		b.mu.Unlock()
		return errBusy
	}
	b.busy[s.id] = struct{}{}
	b.mu.Unlock()
	defer func() {
		b.mu.Lock()
		delete(b.busy, s.id)
		b.mu.Unlock()
	}()
	return s.reserve(n)
}

// grow is also called without the claim, by Grow: two growers both pass
// the check.
func (s *Session) grow(n int) error {
	s.mu.Lock()
	size := s.buffer
	s.mu.Unlock()
	if size+n > 2*s.limit {
		return errLimit
	}
	s.mu.Lock() // want `s.mu is locked again after the section that checked: the value written derives from size`
	s.buffer = size + n
	s.mu.Unlock()
	return nil
}

func (b *Broker) Rebuffer(s *Session, n int) error {
	if err := b.claim(s); err != nil {
		return err
	}
	defer b.release(s)
	return s.grow(n)
}

func (b *Broker) Grow(s *Session, n int) error {
	return s.grow(n)
}

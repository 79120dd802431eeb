package checkthenactfix

import (
	"fmt"
	"sync"
)

type Wallet struct {
	mu      sync.Mutex
	balance int64
}

// Withdraw cannot be fixed by text: under the deferred unlock the error
// would be built with the lock held.
func (w *Wallet) Withdraw(amount int64) error {
	w.mu.Lock()
	ok := w.balance >= amount
	w.mu.Unlock()
	if !ok {
		return fmt.Errorf("withdraw %d: %w", amount, ErrFunds)
	}
	w.mu.Lock() // want `w.mu is locked again after the section that checked: the write is decided by ok`
	defer w.mu.Unlock()
	w.balance -= amount
	return nil
}

func (s *Session) keepAlive() {}

// Resume opens a session like Sessions.For, then starts keeping it
// alive: with the racer's session kept, that one would be kept alive
// twice, so no fix.
func (s *Sessions) Resume(user string) *Session {
	s.mu.Lock()
	sess := s.byUser[user]
	s.mu.Unlock()
	if sess == nil {
		sess = open(user)
		s.mu.Lock() // want `s.mu is locked again after the section that checked: sess was missing`
		s.byUser[user] = sess
		s.mu.Unlock()
		go sess.keepAlive()
	}
	return sess
}

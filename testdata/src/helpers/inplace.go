package helpers

import (
	"log"
	"sync"
)

// Wallets scope each section's defer with a closure called in place:
// what the first closure reads reaches the second through the variables
// they share.
type Wallets struct {
	mu      sync.RWMutex
	balance map[string]int
}

// Spend checks the balance in one closure and debits it in another: a
// debit made in between is undone. Reported, at the Lock in the second
// closure.
func (w *Wallets) Spend(user string, n int) bool {
	var left int
	func() {
		w.mu.RLock()
		defer w.mu.RUnlock()
		left = w.balance[user]
	}()
	if left < n {
		return false
	}
	func() {
		w.mu.Lock() // want `w.mu is locked again for writing after RUnlock: the value written derives from left`
		defer w.mu.Unlock()
		w.balance[user] = left - n
	}()
	return true
}

// SpendChecked reads the balance again in the second closure and gives
// up if it moved. Silent.
func (w *Wallets) SpendChecked(user string, n int) bool {
	var left int
	func() {
		w.mu.RLock()
		defer w.mu.RUnlock()
		left = w.balance[user]
	}()
	if left < n {
		return false
	}
	spent := false
	func() {
		w.mu.Lock()
		defer w.mu.Unlock()
		if w.balance[user] != left {
			return
		}
		w.balance[user] = left - n
		spent = true
	}()
	return spent
}

// SpendOnce tests and debits in one closure. Silent.
func (w *Wallets) SpendOnce(user string, n int) bool {
	ok := false
	func() {
		w.mu.Lock()
		defer w.mu.Unlock()
		if w.balance[user] >= n {
			w.balance[user] -= n
			ok = true
		}
	}()
	return ok
}

// Reset logs the old balance it read in one closure and zeroes it in
// another: the write does not depend on what was read. Silent.
func (w *Wallets) Reset(user string) {
	var old int
	func() {
		w.mu.RLock()
		defer w.mu.RUnlock()
		old = w.balance[user]
	}()
	log.Printf("resetting %s (was %d)", user, old)
	func() {
		w.mu.Lock()
		defer w.mu.Unlock()
		w.balance[user] = 0
	}()
}

// Limiter reserves a slot in a closure called in place and gives it back
// inline when done: the closure changes only the limiter's own counter
// through its pointer, and hands nothing back through the variables it
// shares but a flag it set. Silent.
type Limiter struct {
	mu       sync.Mutex
	inflight int
	capacity int
}

func (l *Limiter) Run(work func()) bool {
	admitted := false
	func() {
		l.mu.Lock()
		defer l.mu.Unlock()
		if l.inflight < l.capacity {
			l.inflight++
			admitted = true
		}
	}()
	if !admitted {
		return false
	}
	work()
	l.mu.Lock()
	defer l.mu.Unlock()
	l.inflight--
	return true
}

// Stats adds up what a call delivered with a closure kept in a variable
// and called on each way out: each call is one whole section. Silent.
type Stats struct {
	mu        sync.Mutex
	delivered int
}

func (s *Stats) Deliver(msgs []string, send func(string) bool) int {
	n := 0
	record := func() {
		s.mu.Lock()
		s.delivered += n
		s.mu.Unlock()
	}
	for _, m := range msgs {
		if !send(m) {
			record()
			return n
		}
		n++
	}
	record()
	return n
}

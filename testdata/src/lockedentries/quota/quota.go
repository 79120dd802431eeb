// Package quota keeps each account's credit. A Ledger does not serialise
// a reservation by itself: Reserve checks the balance in one section and
// debits it in another. Every caller in the module reserves for an
// account under a lock of its own (billing's per-account stripes), so
// the check cannot go stale; Reserve is exported, so only the driver,
// which sees those callers, can tell. It is marked so that it can.
package quota

import "sync"

type Ledger struct {
	mu      sync.Mutex
	balance map[string]int
}

func NewLedger() *Ledger { return &Ledger{balance: make(map[string]int)} }

// Open makes a ledger with opening balances.
func Open(opening map[string]int) *Ledger {
	l := NewLedger()
	for account, n := range opening {
		l.balance[account] = n
	}
	return l
}

// Credit adds to a balance holding only l.mu. It too is a way into the
// balances Reserve checks: the gap is dropped only if every use of it in
// the module holds a lock as well.
func (l *Ledger) Credit(account string, n int) {
	l.mu.Lock()
	l.balance[account] += n
	l.mu.Unlock()
}

func (l *Ledger) available(account string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.balance[account]
}

// Reserve debits n from the account if it has that much.
func (l *Ledger) Reserve(account string, n int) bool {
	if l.available(account) < n {
		return false
	}
	l.mu.Lock() // want `l.mu is locked again`
	l.balance[account] -= n
	l.mu.Unlock()
	return true
}

// ReserveAll reserves every amount or none: it runs through Reserve, so
// its calls count too.
func (l *Ledger) ReserveAll(account string, amounts ...int) bool {
	total := 0
	for _, n := range amounts {
		total += n
	}
	return l.Reserve(account, total)
}

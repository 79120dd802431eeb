// Package settlement keeps balances. Settle moves a balance to the
// reserve in two sections of l.mu: known false in its program, where
// Settle and every other writer run on the one settlement loop package
// bank starts (which goroutine runs what). Settle is exported, so anyone
// may call it on any goroutine as far as this package can tell.
package settlement

import "sync"

type Ledger struct {
	mu       sync.RWMutex
	balances map[string]int
	reserve  int
}

func New() *Ledger { return &Ledger{balances: make(map[string]int)} }

func (l *Ledger) Credit(account string, n int) {
	l.mu.Lock()
	l.balances[account] += n
	l.mu.Unlock()
}

func (l *Ledger) Settle(account string) {
	l.mu.RLock()
	n := l.balances[account]
	l.mu.RUnlock()
	if n == 0 {
		return
	}
	l.mu.Lock() // want `l.mu is locked again for writing after RUnlock: the write is decided by n`
	l.reserve += n
	l.balances[account] = 0
	l.mu.Unlock()
}

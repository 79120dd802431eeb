// Package settle takes the account's lock to read the amount due, but
// lets it go before reserving: a lock taken in the function is not one
// held at the call.
package settle

import (
	"sync"

	"lockedentries/quota"
)

type Account struct {
	mu  sync.Mutex
	id  string
	due int
}

func Settle(l *quota.Ledger, a *Account) bool {
	a.mu.Lock()
	due := a.due
	a.mu.Unlock()
	return l.Reserve(a.id, due) // want `\(\*lockedentries/quota.Ledger\).Reserve other`
}

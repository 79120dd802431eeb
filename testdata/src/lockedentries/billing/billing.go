// Package billing charges accounts, one charge per account at a time:
// each account hashes to a stripe whose lock is held around the
// reservation and the invoice.
package billing

import (
	"hash/fnv"
	"sync"

	"lockedentries/quota"
)

type Biller struct {
	ledger  *quota.Ledger
	stripes [16]sync.Mutex
	sent    map[string][]int
}

func New(l *quota.Ledger) *Biller { return &Biller{ledger: l, sent: make(map[string][]int)} }

func (b *Biller) stripe(account string) *sync.Mutex {
	h := fnv.New32a()
	h.Write([]byte(account))
	return &b.stripes[h.Sum32()%uint32(len(b.stripes))]
}

func (b *Biller) Charge(account string, n int) bool {
	mu := b.stripe(account)
	mu.Lock()
	defer mu.Unlock()
	if !b.ledger.Reserve(account, n) { // want `\(\*lockedentries/quota.Ledger\).Reserve locked`
		return false
	}
	b.sent[account] = append(b.sent[account], n)
	return true
}

// ChargeBundle holds the stripe and leaves the reservation to a helper,
// which only ever runs under it.
func (b *Biller) ChargeBundle(account string, items ...int) bool {
	mu := b.stripe(account)
	mu.Lock()
	defer mu.Unlock()
	return b.reserveBundle(account, items)
}

func (b *Biller) reserveBundle(account string, items []int) bool {
	return b.ledger.ReserveAll(account, items...) // want `\(\*lockedentries/quota.Ledger\).ReserveAll locked`
}

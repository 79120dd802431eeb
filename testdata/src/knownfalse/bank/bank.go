// Package bank drives a settlement ledger from one goroutine: every
// credit and settlement arrives on a channel and the loop applies them
// in order.
package bank

import "knownfalse/settlement"

type op struct {
	account string
	credit  int
}

type Bank struct {
	ledger *settlement.Ledger
	ops    chan op
}

func Start() *Bank {
	b := &Bank{ledger: settlement.New(), ops: make(chan op)}
	go b.loop()
	return b
}

func (b *Bank) loop() {
	for o := range b.ops {
		if o.credit > 0 {
			b.ledger.Credit(o.account, o.credit)
		} else {
			b.ledger.Settle(o.account)
		}
	}
}

func (b *Bank) Submit(account string, credit int) { b.ops <- op{account, credit} }

package lazyinit

import (
	"crypto/rand"
	"encoding/hex"
	"sync"
)

// A support desk keeps open tickets by the customer's reference. A
// reference with no ticket gets a new one under a new random number: the
// entry filled is not the one found missing, so two racing requests open
// two tickets and neither replaces the other. Silent. Filing the new
// ticket under the reference itself replaces a racer's and is reported.

type ticket struct{ number, customer string }

type desk struct {
	mu   sync.RWMutex
	open map[string]*ticket
}

func ticketNumber() string {
	raw := make([]byte, 8)
	_, _ = rand.Read(raw)
	return hex.EncodeToString(raw)
}

// Open returns the customer's ticket, or opens one under a new number.
func (d *desk) Open(ref, customer string) *ticket {
	d.mu.RLock()
	t := d.open[ref]
	d.mu.RUnlock()
	if t != nil {
		return t
	}
	t = &ticket{number: ticketNumber(), customer: customer}
	d.mu.Lock()
	d.open[t.number] = t
	d.mu.Unlock()
	return t
}

// OpenByRef files the new ticket under the reference that was missing.
func (d *desk) OpenByRef(ref, customer string) *ticket {
	d.mu.RLock()
	t := d.open[ref]
	d.mu.RUnlock()
	if t != nil {
		return t
	}
	t = &ticket{number: ref, customer: customer}
	d.mu.Lock() // want `d.mu is locked again for writing after RUnlock: t was missing under the read lock`
	d.open[t.number] = t
	d.mu.Unlock()
	return t
}

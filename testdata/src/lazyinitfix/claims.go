package lazyinitfix

import (
	"errors"
	"sync"
)

var errDeskTaken = errors.New("desk taken")

// Desks hands each desk to the first person who asks for it.
type Desks struct {
	mu     sync.RWMutex
	holder map[string]string // desk -> person
	owners map[int]int       // desk -> badge
}

// Claim tests the desk in one section and records its holder in another.
// What it stores is the caller's name, not something the desk decides:
// two callers who both find the desk free both get a nil error, and the
// later name replaces the earlier one. Reported.
func (d *Desks) Claim(desk, person string) error {
	d.mu.RLock()
	_, taken := d.holder[desk]
	d.mu.RUnlock()
	if taken {
		return errDeskTaken
	}
	d.mu.Lock() // want `d.mu is locked again for writing after RUnlock: d.holder\[desk\] was missing under the read lock, but another goroutine may have claimed it since; this store replaces what it stored, and both go on as if the entry were theirs; look it up again under the write lock and give up if it is there`
	d.holder[desk] = person
	d.mu.Unlock()
	return nil
}

// ClaimBadge stores a number worked out from the caller's own argument:
// still the caller's claim, not the entry's memo. Reported.
func (d *Desks) ClaimBadge(desk, badge int) bool {
	d.mu.RLock()
	_, taken := d.owners[desk]
	d.mu.RUnlock()
	if taken {
		return false
	}
	d.mu.Lock() // want `d.mu is locked again for writing after RUnlock: d.owners\[desk\] was missing under the read lock, but another goroutine may have claimed it`
	d.owners[desk] = badge + 1000
	d.mu.Unlock()
	return true
}

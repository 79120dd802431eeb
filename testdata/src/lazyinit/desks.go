package lazyinit

import (
	"errors"
	"strings"
	"sync"
)

var errDeskTaken = errors.New("desk taken")

// Desks hands each desk to the first person who asks for it. Claims
// tested in one section and recorded in another are reported, with a fix,
// in lazyinitfix/claims.go; these are the shapes that stay silent.
type Desks struct {
	mu     sync.RWMutex
	holder map[string]string // desk -> person
	labels map[string]string
	owners map[int]int
}

// ClaimChecked looks again under the write lock. Silent.
func (d *Desks) ClaimChecked(desk, person string) error {
	d.mu.RLock()
	_, taken := d.holder[desk]
	d.mu.RUnlock()
	if taken {
		return errDeskTaken
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if _, taken := d.holder[desk]; taken {
		return errDeskTaken
	}
	d.holder[desk] = person
	return nil
}

// Label memoises a string worked out from the desk alone: two racers
// store equal strings. Silent.
func (d *Desks) Label(desk string) string {
	d.mu.RLock()
	l, ok := d.labels[desk]
	d.mu.RUnlock()
	if ok {
		return l
	}
	l = strings.ToUpper(desk)
	d.mu.Lock()
	d.labels[desk] = l
	d.mu.Unlock()
	return l
}

// Canonical stores the key itself, converted: racers store the same
// thing. Silent.
func (d *Desks) Canonical(desk int) {
	d.mu.RLock()
	_, ok := d.owners[desk]
	d.mu.RUnlock()
	if ok {
		return
	}
	d.mu.Lock()
	d.owners[desk] = desk * 2
	d.mu.Unlock()
}

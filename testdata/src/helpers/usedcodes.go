package helpers

import (
	"errors"
	"sync"
	"time"
)

// A cache of one-time codes already accepted, shaped like go-cache: the
// exported methods lock and call unexported helpers that take no lock and
// say nothing of the caller's. Add re-checks under the write lock through
// lookup, so a code validated twice at once is accepted once; Put does
// not.
type usedItem struct {
	expires time.Time
}

type usedCodes struct {
	mu    sync.RWMutex
	items map[string]usedItem
}

var errUsed = errors.New("code already used")

func (c *usedCodes) Get(k string) (usedItem, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	it, ok := c.items[k]
	if !ok || time.Now().After(it.expires) {
		return usedItem{}, false
	}
	return it, true
}

// Add fails when the code is there by now.
func (c *usedCodes) Add(k string, ttl time.Duration) error {
	c.mu.Lock()
	if _, found := c.lookup(k); found {
		c.mu.Unlock()
		return errUsed
	}
	c.store(k, ttl)
	c.mu.Unlock()
	return nil
}

// Put stores the code whatever is there.
func (c *usedCodes) Put(k string, ttl time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.store(k, ttl)
}

type validator struct{ used *usedCodes }

func (v *validator) Validate(code string) error {
	if _, used := v.used.Get(code); used {
		return errUsed
	}
	return v.used.Add(code, time.Minute)
}

func (v *validator) ValidateCarelessly(code string) error {
	if _, used := v.used.Get(code); used {
		return errUsed
	}
	v.used.Put(code, time.Minute) // want `v.used.mu is locked again for writing by v.used.Put after RUnlock`
	return nil
}

func (c *usedCodes) lookup(k string) (usedItem, bool) {
	it, ok := c.items[k]
	if !ok || time.Now().After(it.expires) {
		return usedItem{}, false
	}
	return it, true
}

func (c *usedCodes) store(k string, ttl time.Duration) {
	c.items[k] = usedItem{expires: time.Now().Add(ttl)}
}

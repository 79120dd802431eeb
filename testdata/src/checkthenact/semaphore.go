package checkthenact

import (
	"sync"
	"time"
)

// FakeClock is a clock for tests. Advance moves it forward, firing the
// alarms due on the way; it reads the time in one section, fires the
// alarms with no lock held (a receiver may call back into the clock) and
// stores the end time in a later section.
type FakeClock struct {
	advancing chan struct{} // capacity one: one Advance at a time

	mu     sync.Mutex
	now    time.Time
	alarms []chan time.Time
}

func NewFakeClock() *FakeClock {
	return &FakeClock{advancing: make(chan struct{}, 1)}
}

func (c *FakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Advance holds the advancing semaphore throughout, and it is the only
// writer of c.now: the end time it computed cannot be overtaken by
// another Advance. Silent.
func (c *FakeClock) Advance(d time.Duration) {
	c.advancing <- struct{}{}
	defer func() { <-c.advancing }()

	c.mu.Lock()
	end := c.now.Add(d)
	alarms := c.alarms
	c.mu.Unlock()

	for _, a := range alarms {
		a <- end
	}

	c.mu.Lock()
	c.now = end
	c.mu.Unlock()
}

// Skip does the same without the semaphore: two Skips both start from
// the same time and one step is lost.
func (c *FakeClock) Skip(d time.Duration) {
	c.mu.Lock()
	end := c.now.Add(d)
	alarms := c.alarms
	c.mu.Unlock()

	for _, a := range alarms {
		a <- end
	}

	c.mu.Lock() // want `c.mu is locked again after the section that checked: the value written derives from end`
	c.now = end
	c.mu.Unlock()
}

package testharness

import (
	"casedriver"
	"sync"
	"testing"
	"time"
)

// scriptClock is the tests' own time source: the code under test reads it,
// the test moves it forward.
type scriptClock struct {
	mu  sync.Mutex
	now time.Time
}

func newScriptClock(start time.Time) *scriptClock {
	return &scriptClock{now: start}
}

func (c *scriptClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// advance reads the time in one section and stores it moved on in the
// next. Its only callers are the commands of a data-driven test, which
// the driver runs one after another on the test's goroutine: no second
// advance can come in between. Silent.
func (c *scriptClock) advance(d time.Duration) {
	next := c.Now().Add(d)
	c.mu.Lock()
	defer c.mu.Unlock()
	if next.After(c.now) {
		c.now = next
	}
}

func TestExpiryScript(t *testing.T) {
	clock := newScriptClock(time.Unix(0, 0))
	casedriver.RunCases(t, "testdata/expiry", func(t *testing.T, c *casedriver.Case) string {
		switch c.Cmd {
		case "advance":
			clock.advance(time.Second)
		case "now":
			return clock.Now().String()
		}
		return ""
	})
}

// stressClock is moved on from several goroutines at once: two bumps can
// read the same time, and one of them is lost. Reported.
type stressClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *stressClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *stressClock) bump(d time.Duration) {
	next := c.Now().Add(d)
	c.mu.Lock() // want `c.mu is locked again after the section that checked: the value written derives from next`
	defer c.mu.Unlock()
	if next.After(c.now) {
		c.now = next
	}
}

func TestClockUnderLoad(t *testing.T) {
	clock := &stressClock{now: time.Unix(0, 0)}
	casedriver.RunConcurrently(t, 4, func() {
		clock.bump(time.Millisecond)
	})
}

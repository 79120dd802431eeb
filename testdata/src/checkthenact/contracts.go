package checkthenact

import "sync"

// A simulated clock that a test drives. The doc comments of the methods
// that move it say that one goroutine at a time calls them: the lock is
// there for the code under test, which only reads the time.

type simClock struct {
	mu  sync.Mutex
	now int64
	due []int64
}

func (c *simClock) Now() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// fireUpTo runs the timers due by then; only the drivers call it.
func (c *simClock) fireUpTo(then int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for len(c.due) > 0 && c.due[0] <= then {
		c.due = c.due[1:]
	}
}

// Advance moves the clock forward by d, firing the timers on the way.
// This should only be called from a single goroutine at a time.
func (c *simClock) Advance(d int64) {
	c.mu.Lock()
	then := c.now + d
	c.mu.Unlock()
	c.fireUpTo(then)
	c.mu.Lock()
	c.now = then
	c.mu.Unlock()
}

// Jump sets the clock. It must not be called concurrently with Advance.
func (c *simClock) Jump(to int64) {
	c.fireUpTo(to)
	c.mu.Lock()
	c.now = to
	c.mu.Unlock()
}

// The same clock with a writer the contract does not cover: Rewind may
// run on any goroutine, beside the test's Advance.

type sharedClock struct {
	mu  sync.Mutex
	now int64
	due []int64
}

func (c *sharedClock) fireUpTo(then int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for len(c.due) > 0 && c.due[0] <= then {
		c.due = c.due[1:]
	}
}

// Advance moves the clock forward by d.
// This should only be called from a single goroutine at a time.
func (c *sharedClock) Advance(d int64) {
	c.mu.Lock()
	then := c.now + d
	c.mu.Unlock()
	c.fireUpTo(then)
	c.mu.Lock() // want `c.mu is locked again after the section that checked`
	c.now = then
	c.mu.Unlock()
}

// Rewind sets the clock back to zero; any goroutine may call it.
func (c *sharedClock) Rewind() {
	c.mu.Lock()
	c.now = 0
	c.mu.Unlock()
}

// A clock whose doc comment says it is safe for concurrent use: that is
// no contract against concurrent calls.

type tickClock struct {
	mu  sync.Mutex
	now int64
}

func (c *tickClock) tick() {}

// Advance moves the clock forward by d. It is safe for concurrent use.
func (c *tickClock) Advance(d int64) {
	c.mu.Lock()
	then := c.now + d
	c.mu.Unlock()
	c.tick()
	c.mu.Lock() // want `c.mu is locked again after the section that checked`
	c.now = then
	c.mu.Unlock()
}

// A doc comment that says what the method returns is not safe for
// concurrent use says nothing about calling the method.

type snapClock struct {
	mu  sync.Mutex
	now int64
}

func (c *snapClock) tick() {}

// Advance moves the clock forward by d. The history it returns is not
// safe for concurrent use.
func (c *snapClock) Advance(d int64) []int64 {
	c.mu.Lock()
	then := c.now + d
	c.mu.Unlock()
	c.tick()
	c.mu.Lock() // want `c.mu is locked again after the section that checked`
	c.now = then
	c.mu.Unlock()
	return nil
}

// A helper holding the gap, called from a documented method and from one
// documented nowhere: the contract of one caller is not every caller's.

type stepClock struct {
	mu  sync.Mutex
	now int64
}

func (c *stepClock) tick() {}

func (c *stepClock) step(d int64) {
	c.mu.Lock()
	then := c.now + d
	c.mu.Unlock()
	c.tick()
	c.mu.Lock() // want `c.mu is locked again after the section that checked`
	c.now = then
	c.mu.Unlock()
}

// Advance moves the clock forward by d.
// This should only be called from a single goroutine at a time.
func (c *stepClock) Advance(d int64) { c.step(d) }

// Nudge moves the clock forward by one tick, from any goroutine.
func (c *stepClock) Nudge() { c.step(1) }

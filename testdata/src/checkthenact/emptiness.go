package checkthenact

import (
	"context"
	"errors"
	"sync"
)

var (
	errNothingToCancel = errors.New("no request can be cancelled now")
	errBusyCanceller   = errors.New("another request is in flight")
)

// canceller tracks the requests in flight so that an operator can cancel
// them all. cancellable answers with the test a caller would write
// inline, len(c.inFlight) > 0, and counts as that test. (idle, whose true
// means empty, does not: a found result's true means there.)
type canceller struct {
	mu       sync.Mutex
	inFlight map[string]context.CancelFunc
}

func (c *canceller) track(id string, cancel context.CancelFunc) {
	c.mu.Lock()
	c.inFlight[id] = cancel
	c.mu.Unlock()
}

func (c *canceller) cancellable() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.inFlight) > 0
}

func (c *canceller) idle() bool {
	c.mu.Lock()
	n := len(c.inFlight)
	c.mu.Unlock()
	return n == 0
}

// CancelAll's test only decides what it answers: the loop goes through
// the requests in flight as they are now, and finds none if they ended
// in between. Silent.
func (c *canceller) CancelAll() error {
	if !c.cancellable() {
		return errNothingToCancel
	}
	c.mu.Lock()
	for id, cancel := range c.inFlight {
		cancel()
		delete(c.inFlight, id)
	}
	c.mu.Unlock()
	return nil
}

// Exclusive starts a request that must run alone, trusting a test that
// two callers can pass together: both start.
func (c *canceller) Exclusive(id string, cancel context.CancelFunc) error {
	if !c.idle() {
		return errBusyCanceller
	}
	c.mu.Lock() // want `c.mu is locked again after the section that checked: the write is decided by c.idle\(\)`
	c.inFlight[id] = cancel
	c.mu.Unlock()
	return nil
}

// StartAlone is Exclusive with the count taken inline: what it missed is
// a request added since, not an entry it would replace.
func (c *canceller) StartAlone(id string, cancel context.CancelFunc) error {
	c.mu.Lock()
	n := len(c.inFlight)
	c.mu.Unlock()
	if n != 0 {
		return errBusyCanceller
	}
	c.mu.Lock() // want `c.mu is locked again after the section that checked: n said c.inFlight was empty in an earlier section, but another goroutine may have added to it since; test it again in this section and go on only if it is still empty`
	c.inFlight[id] = cancel
	c.mu.Unlock()
	return nil
}

// Follow joins a request to the ones in flight, trusting a stale "some
// are": if they all ended in between, the follower is left alone in the
// map with no one to cancel it with. The helper counts as the test
// inline, and the test still decides this write.
func (c *canceller) Follow(id string, cancel context.CancelFunc) error {
	if !c.cancellable() {
		return errNothingToCancel
	}
	c.mu.Lock() // want `c.mu is locked again after the section that checked: the write is decided by c.cancellable\(\)`
	c.inFlight[id] = cancel
	c.mu.Unlock()
	return nil
}

package checkthenact

import (
	"sync"
	"time"
)

// Conn closes itself when idle for too long. The idle check is a timeout,
// approximate by nature: closing a connection that became busy a moment
// ago is the accepted cost. Silent.
type Conn struct {
	mu       sync.Mutex
	idle     time.Time
	maxIdle  time.Duration
	draining bool
}

func (c *Conn) drain() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.draining = true
}

func (c *Conn) watch(tick <-chan time.Time) {
	for range tick {
		c.mu.Lock()
		idle := c.idle
		c.mu.Unlock()
		if idle.IsZero() {
			continue
		}
		if left := c.maxIdle - time.Since(idle); left <= 0 {
			c.drain()
			return
		}
	}
}

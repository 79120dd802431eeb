package workers

import (
	"net"
	"sync"
	"time"
)

// A packet conn that sends a burst of noise to each new peer and forgets
// the peer after a while. Its janitor goroutine, started when the conn is
// made, is the only one that removes peers; senders only add a peer that
// is missing (checked again under the write lock). A peer the janitor
// listed as expired cannot be renewed before it is removed: silent.
type noisyConn struct {
	mu    sync.RWMutex
	peers map[string]time.Time
	ttl   time.Duration
	stop  chan struct{}
	send  func(addr string, p []byte)
}

func NewNoisyConn(ttl time.Duration, send func(string, []byte)) *noisyConn {
	c := &noisyConn{peers: make(map[string]time.Time), ttl: ttl, stop: make(chan struct{}), send: send}
	if ttl > 0 {
		go c.forget()
	}
	return c
}

func (c *noisyConn) forget() {
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		select {
		case <-tick.C:
			c.mu.RLock()
			now := time.Now()
			var expired []string
			for addr, until := range c.peers {
				if now.After(until) {
					expired = append(expired, addr)
				}
			}
			c.mu.RUnlock()
			for _, addr := range expired {
				c.mu.Lock()
				delete(c.peers, addr)
				c.mu.Unlock()
			}
		case <-c.stop:
			return
		}
	}
}

func (c *noisyConn) WriteTo(p []byte, addr net.Addr) {
	c.mu.RLock()
	_, known := c.peers[addr.String()]
	c.mu.RUnlock()
	if !known {
		c.mu.Lock()
		if _, known = c.peers[addr.String()]; !known {
			c.send(addr.String(), []byte("noise"))
			c.peers[addr.String()] = time.Now().Add(c.ttl)
		}
		c.mu.Unlock()
	}
	c.send(addr.String(), p)
}

func (c *noisyConn) Close() { close(c.stop) }

// renewingConn's sender renews a known peer's deadline on every write: a
// peer the janitor listed as expired may be renewed before it is
// removed, and is forgotten while in use.
type renewingConn struct {
	mu    sync.RWMutex
	peers map[string]time.Time
	ttl   time.Duration
	stop  chan struct{}
}

func NewRenewingConn(ttl time.Duration) *renewingConn {
	c := &renewingConn{peers: make(map[string]time.Time), ttl: ttl, stop: make(chan struct{})}
	go c.forget()
	return c
}

func (c *renewingConn) forget() {
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		select {
		case <-tick.C:
			c.mu.RLock()
			now := time.Now()
			var expired []string
			for addr, until := range c.peers {
				if now.After(until) {
					expired = append(expired, addr)
				}
			}
			c.mu.RUnlock()
			for _, addr := range expired {
				c.mu.Lock() // want `c.mu is locked again for writing after RUnlock: the loop goes through entries of c.peers listed under the read lock because a test of their state let them through`
				delete(c.peers, addr)
				c.mu.Unlock()
			}
		case <-c.stop:
			return
		}
	}
}

func (c *renewingConn) Touch(addr net.Addr) {
	c.mu.Lock()
	c.peers[addr.String()] = time.Now().Add(c.ttl)
	c.mu.Unlock()
}

// Dialers make one conn each: the janitor runs once per conn, and each
// conn's senders only add missing peers. Silent, as for one conn.
func DialBoth(ttl time.Duration, send func(string, []byte)) (a, b *noisyConn) {
	return NewNoisyConn(ttl, send), NewNoisyConn(ttl, send)
}

// Two renewing conns: each conn's janitor still races its own renewals.
func DialRenewing(ttl time.Duration) (a, b *renewingConn) {
	return NewRenewingConn(ttl), NewRenewingConn(ttl)
}

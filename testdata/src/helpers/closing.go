package helpers

import (
	"errors"
	"sync"
)

var ErrClosed = errors.New("pool closed")

type conn struct {
	addr   string
	mu     sync.Mutex
	open   bool
	closed chan struct{}
}

func (c *conn) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.open {
		return errors.New("not open")
	}
	c.open = false
	close(c.closed)
	return nil
}

func dial(addr string) *conn { return &conn{addr: addr} }

// Pool is closed by dropping its map of connections.
type Pool struct {
	mu     sync.RWMutex
	conns  map[string]*conn
	leader string
}

func (p *Pool) Closed() bool {
	p.mu.RLock()
	defer p.mu.RUnlock()
	return p.conns == nil
}

// dropLeader looks the leader up again and removes it only if it is
// there: on a closed pool (nil map) it finds nothing and does nothing.
func (p *Pool) dropLeader() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if c, ok := p.conns[p.leader]; ok {
		_ = c.Close()
		delete(p.conns, p.leader)
	}
}

// ResetLeader's Closed check is only a fast path: silent.
func (p *Pool) ResetLeader() error {
	if p.Closed() {
		return ErrClosed
	}
	p.dropLeader()
	return nil
}

// Reopen trusts the Closed check: a Close in between is undone, and the
// pool comes back to life with no one to close it.
func (p *Pool) Reopen(addrs []string) error {
	if p.Closed() {
		return ErrClosed
	}
	conns := make(map[string]*conn, len(addrs))
	for _, a := range addrs {
		conns[a] = dial(a)
	}
	p.mu.Lock() // want `p.mu is locked again for writing after RUnlock: the write is decided by p.Closed\(\)`
	p.conns = conns
	p.mu.Unlock()
	return nil
}

func (p *Pool) Close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.conns {
		_ = c.Close()
	}
	p.conns = nil
}

// Seeds is a list of addresses to try, refreshed from discovery, and
// the connections made to them.
type Seeds struct {
	mu     sync.RWMutex
	closed bool
	addrs  []string
	conns  map[string]*conn
}

func (s *Seeds) Addrs() ([]string, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed {
		return nil, ErrClosed
	}
	return append([]string(nil), s.addrs...), nil
}

func (s *Seeds) Set(addrs []string) {
	s.mu.Lock()
	s.addrs = addrs
	s.mu.Unlock()
}

func (s *Seeds) connTo(addr string) (*conn, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.conns[addr]
	if !ok {
		c = dial(addr)
		s.conns[addr] = c
	}
	return c, nil
}

// Probe clears the list when none of the addresses it copied answers; a
// list refreshed in between is cleared with them.
func (s *Seeds) Probe(ping func(*conn) error, shuffle func(n int) []int) error {
	var firstErr error
	addrs, err := s.Addrs()
	if err != nil {
		return err
	}
	for _, i := range shuffle(len(addrs)) {
		c, err := s.connTo(addrs[i])
		if err != nil {
			continue
		}
		if err := ping(c); err != nil {
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		return nil
	}
	s.mu.Lock() // want `s.mu is locked again for writing after RUnlock: the write is decided by addrs`
	s.addrs = nil
	s.mu.Unlock()
	return firstErr
}

package lazyinit

import (
	"sync"

	"golang.org/x/sync/singleflight"
)

type Conn struct{ addr string }

func dial(addr string) (*Conn, error) { return &Conn{addr: addr}, nil }

// Pool puts a singleflight group in front of a double-checked insert: the
// closure re-checks under the write lock.
type Pool struct {
	mu    sync.RWMutex
	conns map[string]*Conn
	group singleflight.Group
}

func (p *Pool) Conn(addr string) (*Conn, error) {
	p.mu.RLock()
	c := p.conns[addr]
	p.mu.RUnlock()
	if c != nil {
		return c, nil
	}
	v, err, _ := p.group.Do(addr, func() (any, error) {
		p.mu.Lock()
		defer p.mu.Unlock()
		if c := p.conns[addr]; c != nil {
			return c, nil
		}
		c, err := dial(addr)
		if err != nil {
			return nil, err
		}
		p.conns[addr] = c
		return c, nil
	})
	if err != nil {
		return nil, err
	}
	return v.(*Conn), nil
}

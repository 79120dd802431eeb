package checkthenactfix

import (
	"errors"
	"sync"
)

type conn struct{ addr string }

func (c *conn) Close() error { return nil }

func dial(addr string) *conn { return &conn{addr: addr} }

var errPoolFull = errors.New("pool full")

// ConnPool dials outside its lock. Leaving by the size test made again
// would drop the connection just dialled without closing it, where the
// code as written keeps it (one over the bound): no fix, only the
// finding.
type ConnPool struct {
	mu    sync.Mutex
	conns []*conn
	max   int
	addr  string
}

func (p *ConnPool) Grow() error {
	p.mu.Lock()
	if len(p.conns) >= p.max {
		p.mu.Unlock()
		return errPoolFull
	}
	p.mu.Unlock()
	c := dial(p.addr)
	p.mu.Lock() // want `p.mu is locked again after the section that checked: the write is decided by p.conns`
	p.conns = append(p.conns, c)
	p.mu.Unlock()
	return nil
}

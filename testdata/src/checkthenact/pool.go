package checkthenact

import "sync"

type pooledConn struct{ addr string }

func (c *pooledConn) ping() error { return nil }

// ConnPool checks a connection out (cutting it from the idle list in the
// same section) and puts it back when done: what it appends is a
// connection no one else holds. Silent.
type ConnPool struct {
	mu   sync.Mutex
	idle []*pooledConn
	addr string
}

func (p *ConnPool) get() *pooledConn {
	var c *pooledConn
	p.mu.Lock()
	if len(p.idle) > 0 {
		c = p.idle[0]
		p.idle = p.idle[1:]
	}
	p.mu.Unlock()
	if c == nil {
		c = &pooledConn{addr: p.addr}
	}
	return c
}

func (p *ConnPool) put(c *pooledConn) {
	p.mu.Lock()
	p.idle = append(p.idle, c)
	p.mu.Unlock()
}

func (p *ConnPool) Ping() error {
	c := p.get()
	err := c.ping()
	p.put(c)
	return err
}

// PeekPool looks at the first idle connection without taking it, and
// appends it again after use: two callers can use the same connection at
// once, and each puts it back, so it is listed twice.
type PeekPool struct {
	mu   sync.Mutex
	idle []*pooledConn
	addr string
}

func (p *PeekPool) peek() *pooledConn {
	var c *pooledConn
	p.mu.Lock()
	if len(p.idle) > 0 {
		c = p.idle[0]
	}
	p.mu.Unlock()
	if c == nil {
		c = &pooledConn{addr: p.addr}
	}
	return c
}

func (p *PeekPool) put(c *pooledConn) {
	p.mu.Lock()
	p.idle = append(p.idle, c)
	p.mu.Unlock()
}

func (p *PeekPool) Ping() error {
	c := p.peek()
	err := c.ping()
	p.put(c) // want `p.mu is locked again by p.put after the section that checked: the value written derives from c`
	return err
}

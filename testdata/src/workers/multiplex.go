package workers

import (
	"encoding/binary"
	"io"
	"net"
	"sync"
)

// muxConn multiplexes requests over one connection. Its read loop, one
// per connection, is the only one to add requests; the goroutines that
// answer them only take their own out when done. A request the loop found
// missing stays missing until the loop adds it, and taking out one
// already taken out changes nothing. Silent.
type muxConn struct {
	mu       sync.RWMutex
	requests map[uint16]*muxRequest
	rw       io.ReadWriter
}

type muxRequest struct {
	id   uint16
	body []byte
}

func newMuxConn(rw io.ReadWriter) *muxConn {
	return &muxConn{requests: map[uint16]*muxRequest{}, rw: rw}
}

func ServeMux(l net.Listener) error {
	for {
		rw, err := l.Accept()
		if err != nil {
			return err
		}
		c := newMuxConn(rw)
		go c.serve()
	}
}

func (c *muxConn) serve() {
	var hdr [3]byte
	for {
		if _, err := io.ReadFull(c.rw, hdr[:]); err != nil {
			return
		}
		c.handle(binary.BigEndian.Uint16(hdr[:2]), hdr[2])
	}
}

func (c *muxConn) handle(id uint16, kind byte) {
	c.mu.RLock()
	req, ok := c.requests[id]
	c.mu.RUnlock()
	switch kind {
	case 'b':
		if ok {
			return
		}
		req = &muxRequest{id: id}
		c.mu.Lock()
		c.requests[id] = req
		c.mu.Unlock()
	case 'd':
		if ok {
			go c.answer(req)
		}
	case 'a':
		if ok {
			c.mu.Lock()
			delete(c.requests, id)
			c.mu.Unlock()
		}
	}
}

func (c *muxConn) answer(req *muxRequest) {
	c.rw.Write(req.body)
	c.mu.Lock()
	delete(c.requests, req.id)
	c.mu.Unlock()
}

// relayConn is the same, but Push lets any goroutine add a request: one
// may appear between the loop's lookup and its insert, and is replaced.
type relayConn struct {
	mu       sync.RWMutex
	requests map[uint16]*muxRequest
	rw       io.ReadWriter
}

func newRelayConn(rw io.ReadWriter) *relayConn {
	return &relayConn{requests: map[uint16]*muxRequest{}, rw: rw}
}

func ServeRelay(l net.Listener) error {
	for {
		rw, err := l.Accept()
		if err != nil {
			return err
		}
		c := newRelayConn(rw)
		go c.serve()
	}
}

func (c *relayConn) serve() {
	var hdr [2]byte
	for {
		if _, err := io.ReadFull(c.rw, hdr[:]); err != nil {
			return
		}
		c.begin(binary.BigEndian.Uint16(hdr[:]))
	}
}

func (c *relayConn) begin(id uint16) {
	c.mu.RLock()
	_, ok := c.requests[id]
	c.mu.RUnlock()
	if ok {
		return
	}
	req := &muxRequest{id: id}
	c.mu.Lock() // want `c.mu is locked again for writing after RUnlock`
	c.requests[id] = req
	c.mu.Unlock()
}

func (c *relayConn) Push(id uint16, body []byte) {
	c.mu.Lock()
	c.requests[id] = &muxRequest{id: id, body: body}
	c.mu.Unlock()
}

// pooledConn's objects come from a pool that hands the same connection
// out again (get is no constructor): two loops may serve one object, and
// one loop's lookup goes stale under the other's insert.
type pooledConn struct {
	mu       sync.RWMutex
	requests map[uint16]*muxRequest
	rw       io.ReadWriter
}

type connPool struct {
	mu    sync.Mutex
	conns map[io.ReadWriter]*pooledConn
}

func (p *connPool) get(rw io.ReadWriter) *pooledConn {
	p.mu.Lock()
	defer p.mu.Unlock()
	c, ok := p.conns[rw]
	if !ok {
		c = &pooledConn{requests: map[uint16]*muxRequest{}, rw: rw}
		p.conns[rw] = c
	}
	return c
}

func (p *connPool) Serve(l net.Listener) error {
	for {
		rw, err := l.Accept()
		if err != nil {
			return err
		}
		c := p.get(rw)
		go c.serve()
	}
}

func (c *pooledConn) serve() {
	var hdr [2]byte
	for {
		if _, err := io.ReadFull(c.rw, hdr[:]); err != nil {
			return
		}
		c.begin(binary.BigEndian.Uint16(hdr[:]))
	}
}

func (c *pooledConn) begin(id uint16) {
	c.mu.RLock()
	_, ok := c.requests[id]
	c.mu.RUnlock()
	if ok {
		return
	}
	req := &muxRequest{id: id}
	c.mu.Lock() // want `c.mu is locked again for writing after RUnlock`
	c.requests[id] = req
	c.mu.Unlock()
}

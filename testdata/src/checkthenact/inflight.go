package checkthenact

import (
	"bufio"
	"errors"
	"io"
	"sync"
)

// PipeConn pipelines requests on one connection: Send counts each request
// it writes, and the connection's reader, one goroutine per connection,
// hands a reply over only while one is expected, then counts it off.
type PipeConn struct {
	mu       sync.Mutex
	expected int
	w        io.Writer
	r        *bufio.Reader
	replies  chan []byte
	// last is the reader's own: written with no lock held.
	last []byte
}

func NewPipeConn(rw io.ReadWriter) *PipeConn {
	c := &PipeConn{w: rw, r: bufio.NewReader(rw), replies: make(chan []byte)}
	go c.readLoop()
	return c
}

func (c *PipeConn) Send(req []byte) error {
	c.mu.Lock()
	c.expected++
	c.mu.Unlock()
	_, err := c.w.Write(req)
	return err
}

// readLoop found a reply expected; Send, the only other writer of the
// count, only raises it, so it is still expected when the reader counts
// the reply off (reading the count afresh). Silent.
func (c *PipeConn) readLoop() {
	for {
		line, err := c.r.ReadBytes('\n')
		c.mu.Lock()
		if c.expected == 0 {
			c.mu.Unlock()
			return // nobody asked: the server misbehaves
		}
		c.mu.Unlock()
		if err != nil {
			return
		}
		c.last = line
		c.replies <- line
		c.mu.Lock()
		c.expected--
		c.mu.Unlock()
	}
}

// CancelConn lets a caller give up on its request from any goroutine,
// taking it off the count: between the reader's test and its own
// decrement the count may reach zero, and the reader takes it below.
type CancelConn struct {
	mu       sync.Mutex
	expected int
	r        *bufio.Reader
	replies  chan []byte
	last     []byte
}

func NewCancelConn(r io.Reader) *CancelConn {
	c := &CancelConn{r: bufio.NewReader(r), replies: make(chan []byte)}
	go c.readLoop()
	return c
}

func (c *CancelConn) Expect() {
	c.mu.Lock()
	c.expected++
	c.mu.Unlock()
}

func (c *CancelConn) Cancel() {
	c.mu.Lock()
	c.expected--
	c.mu.Unlock()
}

func (c *CancelConn) readLoop() {
	for {
		line, err := c.r.ReadBytes('\n')
		c.mu.Lock()
		if c.expected == 0 {
			c.mu.Unlock()
			return
		}
		c.mu.Unlock()
		if err != nil {
			return
		}
		c.last = line
		c.replies <- line
		c.mu.Lock() // want `c.mu is locked again after the section that checked: the write is decided by c.expected`
		c.expected--
		c.mu.Unlock()
	}
}

// IdleConn's janitor retires the connection when no request is in
// flight, marking the count -1: a request Send counts in between is
// overwritten. Raising a count does not keep a zero count zero.
type IdleConn struct {
	mu       sync.Mutex
	expected int // -1 once retired
	ticks    chan struct{}
	// swept is the janitor's own: written with no lock held.
	swept int
}

var errRetired = errors.New("connection retired")

func NewIdleConn() *IdleConn {
	c := &IdleConn{ticks: make(chan struct{})}
	go c.janitor()
	return c
}

func (c *IdleConn) Send() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.expected < 0 {
		return errRetired
	}
	c.expected++
	return nil
}

func (c *IdleConn) janitor() {
	for range c.ticks {
		c.mu.Lock()
		if c.expected != 0 {
			c.mu.Unlock()
			continue
		}
		c.mu.Unlock()
		c.swept++
		c.mu.Lock() // want `c.mu is locked again after the section that checked: the write is decided by c.expected`
		c.expected = -1
		c.mu.Unlock()
		return
	}
}

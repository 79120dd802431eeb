package checkthenact

import (
	"errors"
	"io"
	"sync"
)

// Pipe records the first failure of its writer: a send checks the recorded
// error in one section, writes with no lock held, and records its own
// failure in a later section. Another send may have recorded one in
// between; replacing one failure with another leaves the pipe failed
// either way, so the stale check harms nothing. Silent.
type Pipe struct {
	mu     sync.Mutex
	err    error
	w      io.Writer
	closed bool
	sent   int
}

func (p *Pipe) Send(b []byte) error {
	p.mu.Lock()
	if p.err != nil {
		defer p.mu.Unlock()
		return p.err
	}
	if p.closed {
		p.mu.Unlock()
		return errors.New("pipe closed")
	}
	w := p.w
	p.mu.Unlock()

	_, err := w.Write(b)
	p.mu.Lock()
	defer p.mu.Unlock()
	if err != nil {
		p.err = err
		return err
	}
	p.sent++
	return nil
}

// Drain records a failure found while draining, after checking in an
// earlier section that none was recorded (a nil test: the lazy shape).
// Silent for the same reason.
func (p *Pipe) Drain(read func() error) error {
	p.mu.Lock()
	failed := p.err != nil
	p.mu.Unlock()
	if failed {
		return nil
	}
	if err := read(); err != nil {
		p.mu.Lock()
		p.err = err
		p.mu.Unlock()
		return err
	}
	return nil
}

// Reopen is not a failure record: a stale "closed" decides that the pipe
// is opened again and its error cleared, undoing a Close made in between.
func (p *Pipe) Reopen(w io.Writer) {
	p.mu.Lock()
	closed := p.closed
	p.mu.Unlock()
	if !closed {
		return
	}
	p.mu.Lock() // want `p.mu is locked again after the section that checked: the write is decided by closed, read in an earlier section, which may be stale`
	p.closed = false
	p.w = w
	p.mu.Unlock()
}

// Next has named results and a deferred call, so its error result lives in
// a variable that an early return also fills from the recorded error; the
// failure recorded later is the close's own. Silent.
func (p *Pipe) Next(finish func()) (n int, err error) {
	defer finish()
	p.mu.Lock()
	if p.err != nil {
		defer p.mu.Unlock()
		return 0, p.err
	}
	w := p.w
	p.mu.Unlock()

	if c, ok := w.(io.Closer); ok {
		if err = c.Close(); err != nil {
			p.mu.Lock()
			defer p.mu.Unlock()
			p.err = err
			return 0, err
		}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.sent++
	return p.sent, nil
}

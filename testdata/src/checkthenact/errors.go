package checkthenact

import (
	"errors"
	"fmt"
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

// Refs holds references for writers: tryHold claims a reference, or fails
// with an error that describes who holds it; the writer that claimed it
// releases it when done. The error describes a failure, and deciding on
// it is deciding on the claim, made in the same section. Silent.
type Refs struct {
	mu   sync.Mutex
	held map[string]hold
}

type hold struct{ owner string }

func (r *Refs) tryHold(ref, owner string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if h, ok := r.held[ref]; ok {
		return fmt.Errorf("ref %s is held by %s", ref, h.owner)
	}
	r.held[ref] = hold{owner: owner}
	return nil
}

func (r *Refs) release(ref string) {
	r.mu.Lock()
	delete(r.held, ref)
	r.mu.Unlock()
}

// open checks the holder and fails with an error naming it.
func (r *Refs) open(ref, owner string, create func() error) error {
	r.mu.Lock()
	h := r.held[ref]
	r.mu.Unlock()
	if h.owner != owner {
		return fmt.Errorf("ref %s: held by %s, not %s", ref, h.owner, owner)
	}
	if err := create(); err != nil {
		return fmt.Errorf("ref %s (%s): %w", ref, h.owner, err)
	}
	return nil
}

func (r *Refs) Write(ref, owner string, create, write func() error) error {
	if err := r.tryHold(ref, owner); err != nil {
		return err
	}
	if err := r.open(ref, owner, create); err != nil {
		r.release(ref)
		return err
	}
	defer r.release(ref)
	return write()
}

package checkthenact

import (
	"errors"
	"sync"
	"time"
)

type windowed struct {
	at   time.Time
	nack func()
}

// Window holds messages until the window they fall in closes.
type Window struct {
	mu      sync.Mutex
	pending []*windowed
}

func (w *Window) Add(m *windowed) {
	w.mu.Lock()
	w.pending = append(w.pending, m)
	w.mu.Unlock()
}

// due cuts the messages before end out of the window, handing back
// copies stamped with its end.
func (w *Window) due(end time.Time) ([]*windowed, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	var out, keep []*windowed
	for _, m := range w.pending {
		if m.at.Before(end) {
			out = append(out, &windowed{at: end, nack: m.nack})
		} else {
			keep = append(keep, m)
		}
	}
	w.pending = keep
	if len(keep) > 1000 {
		return out, errFull
	}
	return out, nil
}

var errFull = errors.New("window full")

// Next waits for a window with messages. At the end of input it nacks
// every message still waiting, as the window holds them then, and empties
// it: one added since the last look is nacked with the rest. Silent.
func (w *Window) Next(last time.Time, done <-chan struct{}, tick <-chan time.Time) ([]*windowed, error) {
	// A window missed since the last read first.
	if batch, err := w.due(last); len(batch) > 0 || err != nil {
		return batch, err
	}
	for {
		if batch, err := w.due(time.Now()); len(batch) > 0 || err != nil {
			return batch, err
		}
		select {
		case <-done:
			w.mu.Lock()
			for _, m := range w.pending {
				m.nack()
			}
			w.pending = nil
			w.mu.Unlock()
			return nil, errFull
		case <-tick:
		}
	}
}

// Idle empties the window when the last look found nothing due, without
// looking at what it holds now: a message added since is dropped unacked.
func (w *Window) Idle() {
	if batch, _ := w.due(time.Now()); len(batch) > 0 {
		return
	}
	w.mu.Lock() // want `w.mu is locked again after the section that checked: the removal is decided by batch`
	w.pending = nil
	w.mu.Unlock()
}

// Closer is a window that shuts down once.
type Closer struct {
	mu      sync.Mutex
	closed  bool
	done    chan struct{}
	pending []*windowed
}

func (c *Closer) isClosed() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.closed
}

// Shutdown nacks all it holds and empties it, as Next's end of input
// does, but what decided it is a flag: two shutdowns that both found it
// open both close done (the second panics) and mark it closed.
func (c *Closer) Shutdown() {
	if c.isClosed() {
		return
	}
	close(c.done)
	c.mu.Lock() // want `c.mu is locked again after the section that checked: the write is decided by c.isClosed\(\)`
	for _, m := range c.pending {
		m.nack()
	}
	c.pending = nil
	c.closed = true
	c.mu.Unlock()
}

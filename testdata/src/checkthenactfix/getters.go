package checkthenactfix

import (
	"errors"
	"sync"
)

// Decisions taken by calling a getter that locks for itself, then acted
// on in a later section: the fix tests again after the Lock, with the
// getter written out.

var errQueueFull = errors.New("queue full")

// An outbox bounded by a limit: two senders see room for one more and
// both append.
type Outbox struct {
	mu      sync.Mutex
	pending []string
	limit   int
}

func (o *Outbox) Len() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return len(o.pending)
}

func (o *Outbox) enqueue(msg string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.pending = append(o.pending, msg)
}

// Send checks and enqueues through two helpers.
func (o *Outbox) Send(msg string) error {
	if o.Len() >= o.limit {
		return errQueueFull
	}
	o.enqueue(msg) // want `o.mu is locked again by o.enqueue after the section that checked: the write is decided by o.Len\(\)`
	return nil
}

// SendNow enqueues inline.
func (o *Outbox) SendNow(msg string) error {
	if o.Len() >= o.limit {
		return errQueueFull
	}
	o.mu.Lock() // want `o.mu is locked again after the section that checked: the write is decided by o.Len\(\)`
	o.pending = append(o.pending, msg)
	o.mu.Unlock()
	return nil
}

// A directory of logins, filled on first use: two callers both build
// one and the second replaces the first.
type Login struct{ user string }

type Directory struct {
	mu     sync.Mutex
	logins map[string]*Login
}

func (d *Directory) login(user string) *Login {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.logins[user]
}

func (d *Directory) Open(user string) *Login {
	if s := d.login(user); s != nil {
		return s
	}
	s := &Login{user: user}
	d.mu.Lock() // want `d.mu is locked again after the section that checked: s was missing in an earlier section`
	d.logins[user] = s
	d.mu.Unlock()
	return s
}

func (d *Directory) Resume(user string) *Login {
	s := d.login(user)
	if s != nil {
		return s
	}
	s = &Login{user: user}
	d.mu.Lock() // want `d.mu is locked again after the section that checked: s was missing in an earlier section`
	defer d.mu.Unlock()
	d.logins[user] = s
	return s
}

// A registry of workers whose getter returns the lookup's two values,
// tested after the call.
type Worker struct{ id string }

type Workers struct {
	mu   sync.Mutex
	byID map[string]*Worker
}

func (ws *Workers) worker(id string) (*Worker, bool) {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	w, ok := ws.byID[id]
	return w, ok
}

func (ws *Workers) Enlist(id string) *Worker {
	w, ok := ws.worker(id)
	if ok {
		return w
	}
	w = &Worker{id: id}
	ws.mu.Lock() // want `ws.mu is locked again after the section that checked: w was missing in an earlier section`
	ws.byID[id] = w
	ws.mu.Unlock()
	return w
}

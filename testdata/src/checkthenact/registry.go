package checkthenact

import (
	"errors"
	"sync"
)

// Proc guards its own state; Delete succeeds once.
type Proc struct {
	mu      sync.Mutex
	deleted bool
	expiry  int64 // guarded by the Procs' mu
}

func (t *Proc) Delete() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.deleted {
		return errors.New("already deleted")
	}
	t.deleted = true
	return nil
}

// Procs maps ids to procs.
type Procs struct {
	mu    sync.Mutex
	procs map[string]*Proc
}

func (ts *Procs) get(id string) (*Proc, error) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	t, ok := ts.procs[id]
	if !ok {
		return nil, errors.New("no such proc")
	}
	return t, nil
}

// Delete removes the entry only after the proc's own Delete worked: a
// racing Delete fails there, or removes the same entry. Silent.
func (ts *Procs) Delete(id string) error {
	t, err := ts.get(id)
	if err != nil {
		return err
	}
	if err := t.Delete(); err != nil {
		return err
	}
	ts.mu.Lock()
	delete(ts.procs, id)
	ts.mu.Unlock()
	return nil
}

// Renew extends a proc's lease.
func (ts *Procs) Renew(id string, until int64) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if p, ok := ts.procs[id]; ok {
		p.expiry = until
	}
}

// Expire removes an entry found expired in an earlier section: a Renew in
// between is lost with the entry.
func (ts *Procs) Expire(id string, now int64) {
	ts.mu.Lock()
	p, ok := ts.procs[id]
	if !ok {
		ts.mu.Unlock()
		return
	}
	expiry := p.expiry
	ts.mu.Unlock()
	if expiry > now {
		return
	}
	ts.mu.Lock() // want `ts.mu is locked again after the section that checked: the write is decided by expiry`
	delete(ts.procs, id)
	ts.mu.Unlock()
}

// expired lists the procs whose lease ran out.
func (ts *Procs) expired(now int64) []string {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	var ids []string
	for id, p := range ts.procs {
		if p.expiry <= now {
			ids = append(ids, id)
		}
	}
	return ids
}

// Reap deletes what the listing found through Delete, which looks each
// proc up again itself and deletes it only if its Delete worked: silent.
func (ts *Procs) Reap(now int64) {
	for _, id := range ts.expired(now) {
		_ = ts.Delete(id)
	}
}

func (ts *Procs) drop(id string) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	delete(ts.procs, id)
}

// ReapBlind deletes straight from the listing: a Renew in between is lost.
func (ts *Procs) ReapBlind(now int64) {
	for _, id := range ts.expired(now) {
		ts.drop(id) // want `ts.mu is locked again by ts.drop after the section that checked`
	}
}

// ExpireJoined is Expire with the guard joined into one condition.
func (ts *Procs) ExpireJoined(id string, now int64) {
	ts.mu.Lock()
	p, ok := ts.procs[id]
	expired := ok && p.expiry <= now
	ts.mu.Unlock()
	if !expired {
		return
	}
	ts.mu.Lock() // want `ts.mu is locked again after the section that checked: the write is decided by`
	delete(ts.procs, id)
	ts.mu.Unlock()
}

package checkthenact

import (
	"errors"
	"sync"
)

var errInUse = errors.New("volume in use")

// NameLocks is a table of named locks: Lock(name) excludes every other
// holder of name until Unlock(name).
type NameLocks struct {
	mu    sync.Mutex
	locks map[string]*sync.Mutex
}

func (n *NameLocks) Lock(name string) {
	n.lockFor(name).Lock()
}

// lockFor hands out the lock of a name, made on first use and never
// removed: a get-or-create, not a claim of the name.
func (n *NameLocks) lockFor(name string) *sync.Mutex {
	n.mu.Lock()
	defer n.mu.Unlock()
	l, ok := n.locks[name]
	if !ok {
		l = new(sync.Mutex)
		n.locks[name] = l
	}
	return l
}

func (n *NameLocks) Unlock(name string) {
	n.mu.Lock()
	l := n.locks[name]
	n.mu.Unlock()
	l.Unlock()
}

// Volumes counts references per volume under mu; every operation on one
// name runs under that name's lock.
type Volumes struct {
	names NameLocks
	mu    sync.Mutex
	refs  map[string]int
}

// Remove checks the references and deletes in two sections of mu, but
// under the name's lock throughout: no one else can take a reference to
// that name in between. Silent.
func (v *Volumes) Remove(name string) error {
	v.names.Lock(name)
	defer v.names.Unlock(name)
	v.mu.Lock()
	refs := v.refs[name]
	v.mu.Unlock()
	if refs > 0 {
		return errInUse
	}
	v.mu.Lock()
	delete(v.refs, name)
	v.mu.Unlock()
	return nil
}

// Prune does the same without the name's lock: a reference taken in
// between is to a volume about to vanish.
func (v *Volumes) Prune(name string) error {
	v.mu.Lock()
	refs := v.refs[name]
	v.mu.Unlock()
	if refs > 0 {
		return errInUse
	}
	v.mu.Lock() // want `v.mu is locked again after the section that checked: the write is decided by refs`
	delete(v.refs, name)
	v.mu.Unlock()
	return nil
}

// Drain fetches the name's lock but never takes it: looking a lock up is
// not holding it.
func (v *Volumes) Drain(name string) error {
	l := v.names.lockFor(name)
	_ = l
	v.mu.Lock()
	refs := v.refs[name]
	v.mu.Unlock()
	if refs > 0 {
		return errInUse
	}
	v.mu.Lock() // want `v.mu is locked again after the section that checked: the write is decided by refs`
	delete(v.refs, name)
	v.mu.Unlock()
	return nil
}

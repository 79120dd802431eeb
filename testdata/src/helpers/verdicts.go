package helpers

import (
	"errors"
	"sync"
)

// An account directory whose lookups answer with an error: checkFree
// fails when the name is taken, find fails when it is not there. Which
// answer comes back is what the directory held under its read lock, and
// a caller that registers on that answer in a later section may replace
// an account registered in between.
type account struct {
	name  string
	owner string
}

type directory struct {
	mu     sync.RWMutex
	byName map[string]*account
	closed bool
	admin  sync.Mutex
}

var (
	errTaken     = errors.New("name taken")
	errNoAccount = errors.New("no such account")
	errClosed    = errors.New("directory closed")
)

// checkFree fails when name is in use: a nil error says it was missing.
func (d *directory) checkFree(name string) error {
	d.mu.RLock()
	defer d.mu.RUnlock()
	if _, ok := d.byName[name]; ok {
		return errTaken
	}
	return nil
}

// find fails when name is not there: a failure says it was missing.
func (d *directory) find(name string) (*account, error) {
	d.mu.RLock()
	defer d.mu.RUnlock()
	a, ok := d.byName[name]
	if !ok {
		return nil, errNoAccount
	}
	return a, nil
}

func (d *directory) put(a *account) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.byName[a.name] = a
}

// putNew stores a only where the name is still free.
func (d *directory) putNew(a *account) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if _, ok := d.byName[a.name]; ok {
		return errTaken
	}
	d.byName[a.name] = a
	return nil
}

func (d *directory) drop(name string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	delete(d.byName, name)
}

// register stores the account the free name was found for: two callers
// registering one name both pass, and the later put replaces the first
// account.
func (d *directory) register(a *account) error {
	if err := d.checkFree(a.name); err != nil {
		return err
	}
	d.put(a) // want `d.mu is locked again for writing by d.put after RUnlock: the entry d.checkFree\(a.name\) looked for was missing under the read lock`
	return nil
}

// claim does the same with a lookup that fails on a missing name.
func (d *directory) claim(a *account) error {
	if _, err := d.find(a.name); err == nil {
		return errTaken
	}
	d.put(a) // want `d.mu is locked again for writing by d.put after RUnlock: the entry d.find\(a.name\) looked for was missing under the read lock`
	return nil
}

// claimInline writes the map itself after the lookup failed.
func (d *directory) claimInline(a *account) error {
	if _, err := d.find(a.name); err == nil {
		return errTaken
	}
	d.mu.Lock() // want `d.mu is locked again for writing after RUnlock: the entry d.find\(a.name\) looked for was missing under the read lock`
	d.byName[a.name] = a
	d.mu.Unlock()
	return nil
}

// claimInlineChecked looks the name up again under the write lock before
// it stores. Silent.
func (d *directory) claimInlineChecked(a *account) error {
	if _, err := d.find(a.name); err == nil {
		return errTaken
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if _, ok := d.byName[a.name]; ok {
		return errTaken
	}
	d.byName[a.name] = a
	return nil
}

// claimNamed tests for the lookup's own failure.
func (d *directory) claimNamed(a *account) error {
	if _, err := d.find(a.name); err != errNoAccount {
		return errTaken
	}
	d.put(a) // want `d.mu is locked again for writing by d.put after RUnlock: the entry d.find\(a.name\) looked for was missing under the read lock`
	return nil
}

// claimIs tests the failure with errors.Is.
func (d *directory) claimIs(a *account) error {
	_, err := d.find(a.name)
	if !errors.Is(err, errNoAccount) {
		return errTaken
	}
	d.put(a) // want `d.mu is locked again for writing by d.put after RUnlock: the entry d.find\(a.name\) looked for was missing under the read lock`
	return nil
}

// lookup fails with errClosed once the directory is closed, and with
// errNoAccount where name is not there: only the second says missing.
func (d *directory) lookup(name string) (*account, error) {
	d.mu.RLock()
	defer d.mu.RUnlock()
	if d.closed {
		return nil, errClosed
	}
	a, ok := d.byName[name]
	if !ok {
		return nil, errNoAccount
	}
	return a, nil
}

// claimOpen registers where the lookup said the name is missing.
func (d *directory) claimOpen(a *account) error {
	_, err := d.lookup(a.name)
	if !errors.Is(err, errNoAccount) {
		return err
	}
	d.put(a) // want `d.mu is locked again for writing by d.put after RUnlock: the entry d.lookup\(a.name\) looked for was missing under the read lock`
	return nil
}

// claimOpenChecked stores with putNew, which looks again under the
// write lock. Silent.
func (d *directory) claimOpenChecked(a *account) error {
	_, err := d.lookup(a.name)
	if !errors.Is(err, errNoAccount) {
		return err
	}
	return d.putNew(a)
}

// registerChecked asks first, for a clear error, and stores with putNew,
// which looks again under the write lock. Silent.
func (d *directory) registerChecked(a *account) error {
	if err := d.checkFree(a.name); err != nil {
		return err
	}
	return d.putNew(a)
}

// registerAdmin holds the directory's admin lock over the check and the
// store: no other registration can come between them. Silent.
func (d *directory) registerAdmin(a *account) error {
	d.admin.Lock()
	defer d.admin.Unlock()
	if err := d.checkFree(a.name); err != nil {
		return err
	}
	d.put(a)
	return nil
}

// close removes an account that was found: removing it again, if it went
// in between, changes nothing. Silent.
func (d *directory) close(name string) error {
	if _, err := d.find(name); err != nil {
		return err
	}
	d.drop(name)
	return nil
}

// reserve claims name with a placeholder where it is free: a nil error
// says this caller now holds it.
func (d *directory) reserve(name string) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if _, ok := d.byName[name]; ok {
		return errTaken
	}
	d.byName[name] = &account{name: name}
	return nil
}

// registerReserved fills in the account it reserved: no one else can
// have passed reserve for the name. Silent.
func (d *directory) registerReserved(a *account) error {
	if err := d.reserve(a.name); err != nil {
		return err
	}
	d.mu.Lock()
	d.byName[a.name] = a
	d.mu.Unlock()
	return nil
}

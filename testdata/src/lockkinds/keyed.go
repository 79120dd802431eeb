package lockkinds

import (
	"sync"

	"keyedlocker"
)

// NameLocker serialises the operations on one name: Lock(name) waits for
// whoever holds that name, not for the others. Volumes is given one (a
// locker of another package); what it holds is known only from the
// methods' names and the key.
type NameLocker interface {
	Lock(name string)
	Unlock(name string)
}

// Volumes keeps the volumes by name; every operation on a name holds
// that name's lock from names.
type Volumes struct {
	names  NameLocker
	mu     sync.RWMutex
	byName map[string]*volume
}

type volume struct {
	name string
	refs map[string]bool
}

// lookup makes the volume if it is missing, in two sections of v.mu: its
// callers hold the name's lock, so no one else can make the same volume
// in between. Silent.
func (v *Volumes) lookup(name string) *volume {
	v.mu.RLock()
	vol, ok := v.byName[name]
	v.mu.RUnlock()
	if ok {
		return vol
	}
	vol = &volume{name: name, refs: make(map[string]bool)}
	v.mu.Lock()
	v.byName[name] = vol
	v.mu.Unlock()
	return vol
}

func (v *Volumes) Create(name string) *volume {
	v.names.Lock(name)
	defer v.names.Unlock(name)
	return v.lookup(name)
}

func (v *Volumes) Mount(name, ref string) {
	v.names.Lock(name)
	vol := v.lookup(name)
	v.names.Unlock(name)
	v.mu.Lock()
	vol.refs[ref] = true
	v.mu.Unlock()
}

// find is lookup's twin, but Adopt calls it after it let go of the
// name's lock, and Claim holds the lock of another name than the one
// it looks up: a volume made in between is replaced. Reported.
func (v *Volumes) find(name string) *volume {
	v.mu.RLock()
	vol, ok := v.byName[name]
	v.mu.RUnlock()
	if ok {
		return vol
	}
	vol = &volume{name: name, refs: make(map[string]bool)}
	v.mu.Lock() // want `v.mu is locked again for writing after RUnlock: vol was missing under the read lock`
	v.byName[name] = vol
	v.mu.Unlock()
	return vol
}

func (v *Volumes) Adopt(name string) *volume {
	v.names.Lock(name)
	v.names.Unlock(name)
	return v.find(name)
}

func (v *Volumes) Claim(name, alias string) *volume {
	v.names.Lock(alias)
	defer v.names.Unlock(alias)
	return v.find(name)
}

// Images does the same with another package's locker, known by its
// methods' names and the key alone. Silent.
type Images struct {
	names  *keyedlocker.Locker
	mu     sync.RWMutex
	byName map[string]*volume
}

func (im *Images) lookup(name string) *volume {
	im.mu.RLock()
	img, ok := im.byName[name]
	im.mu.RUnlock()
	if ok {
		return img
	}
	img = &volume{name: name, refs: make(map[string]bool)}
	im.mu.Lock()
	im.byName[name] = img
	im.mu.Unlock()
	return img
}

func (im *Images) Pull(name string) *volume {
	im.names.Lock(name)
	defer im.names.Unlock(name)
	return im.lookup(name)
}

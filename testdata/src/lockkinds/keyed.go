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

// Shelves is Volumes again, but its find is called by Adopt after it let
// go of the name's lock, and by Claim holding the lock of another name
// than the one it looks up: a shelf made in between is replaced.
// Reported.
type Shelves struct {
	names  NameLocker
	mu     sync.RWMutex
	byName map[string]*volume
}

func (v *Shelves) find(name string) *volume {
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

func (v *Shelves) Adopt(name string) *volume {
	v.names.Lock(name)
	v.names.Unlock(name)
	return v.find(name)
}

func (v *Shelves) Claim(name, alias string) *volume {
	v.names.Lock(alias)
	defer v.names.Unlock(alias)
	return v.find(name)
}

// VolumeIndex keeps Volumes' locked lookup, but Import fills the same map
// holding no name lock: the callers' lock keeps out only the callers
// that take it, so lookup's fill may replace what Import stored in
// between. Reported.
type VolumeIndex struct {
	names  NameLocker
	mu     sync.RWMutex
	byName map[string]*volume
}

func (r *VolumeIndex) lookup(name string) *volume {
	r.mu.RLock()
	vol, ok := r.byName[name]
	r.mu.RUnlock()
	if ok {
		return vol
	}
	vol = &volume{name: name, refs: make(map[string]bool)}
	r.mu.Lock() // want `r.mu is locked again for writing after RUnlock: vol was missing under the read lock`
	r.byName[name] = vol
	r.mu.Unlock()
	return vol
}

func (r *VolumeIndex) Create(name string) *volume {
	r.names.Lock(name)
	defer r.names.Unlock(name)
	return r.lookup(name)
}

func (r *VolumeIndex) Import(vols []*volume) {
	r.mu.Lock()
	for _, vol := range vols {
		r.byName[vol.name] = vol
	}
	r.mu.Unlock()
}

// Catalog's Import takes the name's lock around its store too: every
// writer of the map is inside the callers' lock. Silent.
type Catalog struct {
	names  NameLocker
	mu     sync.RWMutex
	byName map[string]*volume
}

func (c *Catalog) lookup(name string) *volume {
	c.mu.RLock()
	vol, ok := c.byName[name]
	c.mu.RUnlock()
	if ok {
		return vol
	}
	vol = &volume{name: name, refs: make(map[string]bool)}
	c.mu.Lock()
	c.byName[name] = vol
	c.mu.Unlock()
	return vol
}

func (c *Catalog) Create(name string) *volume {
	c.names.Lock(name)
	defer c.names.Unlock(name)
	return c.lookup(name)
}

func (c *Catalog) Import(vol *volume) {
	c.names.Lock(vol.name)
	defer c.names.Unlock(vol.name)
	c.mu.Lock()
	c.byName[vol.name] = vol
	c.mu.Unlock()
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

package startup

import "sync"

// An index of volumes by name, filled by a method that checks and stores
// in two sections of its lock.
type index struct {
	mu     sync.RWMutex
	byName map[string]*Volume
}

// newIndex is the index's constructor: what it returns no one else has.
func newIndex() *index {
	return &index{byName: map[string]*Volume{}}
}

func (x *index) add(vols []Volume) {
	for _, v := range vols {
		x.mu.RLock()
		_, ok := x.byName[v.Name]
		x.mu.RUnlock()
		if ok {
			continue
		}
		added := v
		x.mu.Lock()
		x.byName[v.Name] = &added
		x.mu.Unlock()
	}
}

func (x *index) len() int {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return len(x.byName)
}

// CountDistinct fills an index fresh from its constructor: no one else can
// add to it between add's two sections. Silent.
func CountDistinct(vols []Volume) int {
	x := newIndex()
	x.add(vols)
	return x.len()
}

// addShared is the same fill on one index every caller shares.
func (x *index) addShared(vols []Volume) {
	for _, v := range vols {
		x.mu.RLock()
		_, ok := x.byName[v.Name]
		x.mu.RUnlock()
		if ok {
			continue
		}
		added := v
		x.mu.Lock() // want `x.mu is locked again for writing after RUnlock: x.byName\[v.Name\] was missing under the read lock`
		x.byName[v.Name] = &added
		x.mu.Unlock()
	}
}

var known = newIndex()

// Remember adds to the shared index, from whatever goroutine calls it.
func Remember(vols []Volume) int {
	known.addShared(vols)
	return known.len()
}

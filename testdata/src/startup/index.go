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

// A shelf of volumes per driver, filled in batches by a method with the
// same two sections.
type shelf struct {
	mu     sync.RWMutex
	byName map[string]*Volume
}

func newShelf() *shelf {
	return &shelf{byName: map[string]*Volume{}}
}

func (s *shelf) stock(v Volume) {
	s.mu.RLock()
	_, ok := s.byName[v.Name]
	s.mu.RUnlock()
	if ok {
		return
	}
	s.mu.Lock()
	s.byName[v.Name] = &v
	s.mu.Unlock()
}

func (s *shelf) stockShown(v Volume) {
	s.mu.RLock()
	_, ok := s.byName[v.Name]
	s.mu.RUnlock()
	if ok {
		return
	}
	s.mu.Lock() // want `s.mu is locked again for writing after RUnlock: s.byName\[v.Name\] was missing under the read lock`
	s.byName[v.Name] = &v
	s.mu.Unlock()
}

// Stock fills a new shelf in a loop and hands it out after the loop: each
// stock runs before anyone else can see the shelf. Silent.
func Stock(vols []Volume) *shelf {
	s := newShelf()
	for _, v := range vols {
		s.stock(v)
	}
	return s
}

// StockWatched shows the shelf to a watcher after each volume: the next
// stockShown runs while the watchers started before it look on.
func StockWatched(vols []Volume, watch func(*shelf)) {
	s := newShelf()
	for _, v := range vols {
		s.stockShown(v)
		go watch(s)
	}
}

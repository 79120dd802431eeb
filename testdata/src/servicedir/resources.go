package servicedir

import "sync"

// resource holds a value that Set may clear; access reports whether the
// value was still there.
type resource struct {
	mu  sync.Mutex
	val *Record
}

func (r *resource) access(fn func(*Record)) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.val == nil {
		return false
	}
	fn(r.val)
	return true
}

// Resources maps names to resources that empty themselves when deleted.
type Resources struct {
	mu  sync.RWMutex
	res map[string]*resource
}

// Use runs fn on the named resource. When the resource it found had been
// emptied, it removes the name, but only after asking again, under the
// write lock, the resource the map holds then: one stored in between
// stays. Silent.
func (s *Resources) Use(name string, create bool, fn func(*Record)) bool {
	s.mu.RLock()
	r, ok := s.res[name]
	s.mu.RUnlock()
	if !ok {
		if !create {
			return false
		}
		s.mu.Lock()
		r = &resource{}
		s.res[name] = r
		s.mu.Unlock()
	}
	if r.access(fn) {
		return true
	}
	s.mu.Lock()
	if !s.res[name].access(func(*Record) {}) {
		delete(s.res, name)
	}
	s.mu.Unlock()
	return false
}

// UseOnce removes the name on the word of the resource it found or made
// first: a resource stored under the name in between is removed too.
func (s *Resources) UseOnce(name string, create bool, fn func(*Record)) bool {
	s.mu.RLock()
	r, ok := s.res[name]
	s.mu.RUnlock()
	if !ok {
		if !create {
			return false
		}
		s.mu.Lock()
		r = &resource{}
		s.res[name] = r
		s.mu.Unlock()
	}
	if r.access(fn) {
		return true
	}
	s.mu.Lock() // want `s.mu is locked again for writing after RUnlock: the removal is decided by r`
	delete(s.res, name)
	s.mu.Unlock()
	return false
}

// Put stores a fresh resource under name.
func (s *Resources) Put(name string, rec *Record) {
	s.mu.Lock()
	s.res[name] = &resource{val: rec}
	s.mu.Unlock()
}

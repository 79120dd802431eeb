package syncmap

import "sync"

// Load balancers build their hash ring once per instance set and keep it
// in the set's sync.Map, under the set's lock, which the set hands out
// through an accessor.

type ring struct{ id int32 }

type instanceSet struct {
	lock  sync.Mutex
	rings sync.Map // balancer id -> *ring
}

func (s *instanceSet) ring(id int32) *ring {
	v, ok := s.rings.Load(id)
	if !ok {
		return nil
	}
	return v.(*ring)
}

func (s *instanceSet) setRing(r *ring) { s.rings.Store(r.id, r) }

// locker hands out the set's lock.
func (s *instanceSet) locker() sync.Locker { return &s.lock }

// mutex hands out the set's lock as itself.
func (s *instanceSet) mutex() *sync.Mutex { return &s.lock }

// ringFor looks without the lock first, then again under it before
// building: double-checked locking through the accessor (silent).
func ringFor(s *instanceSet, id int32) *ring {
	if r := s.ring(id); r != nil {
		return r
	}
	s.locker().Lock()
	defer s.locker().Unlock()
	if r := s.ring(id); r != nil {
		return r
	}
	r := &ring{id: id}
	s.setRing(r)
	return r
}

// ringForMutex is ringFor with the accessor returning the mutex itself
// (silent).
func ringForMutex(s *instanceSet, id int32) *ring {
	if r := s.ring(id); r != nil {
		return r
	}
	mu := s.mutex()
	mu.Lock()
	defer mu.Unlock()
	if r := s.ring(id); r != nil {
		return r
	}
	r := &ring{id: id}
	s.setRing(r)
	return r
}

// ringForLocal converts the lock to a sync.Locker in place (silent).
func ringForLocal(s *instanceSet, id int32) *ring {
	if r := s.ring(id); r != nil {
		return r
	}
	var l sync.Locker = &s.lock
	l.Lock()
	defer l.Unlock()
	if r := s.ring(id); r != nil {
		return r
	}
	r := &ring{id: id}
	s.setRing(r)
	return r
}

// ringForUnchecked takes the lock through the accessor but builds on the
// look made before it: two callers that both missed build two rings, and
// the second replaces the first, which its caller already uses.
func ringForUnchecked(s *instanceSet, id int32) *ring {
	if r := s.ring(id); r != nil {
		return r
	}
	s.locker().Lock()
	defer s.locker().Unlock()
	r := &ring{id: id}
	s.setRing(r) // want `s.setRing stores what s.ring found missing`
	return r
}

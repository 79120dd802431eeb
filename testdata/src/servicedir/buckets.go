package servicedir

import (
	"errors"
	"sync"
)

// bucket is kept in the map by value: reading one copies it.
type bucket struct {
	owner   string
	objects []string
}

var errNotEmpty = errors.New("bucket not empty")

// Buckets refuses to delete a bucket that still holds objects. The test
// is of a copy of the entry taken under the read lock: an object added
// in the gap is deleted with its bucket. Reported.
type Buckets struct {
	mu      sync.RWMutex
	buckets map[string]bucket
}

func (s *Buckets) Put(name, object string) {
	s.mu.Lock()
	b := s.buckets[name]
	b.objects = append(b.objects, object)
	s.buckets[name] = b
	s.mu.Unlock()
}

func (s *Buckets) Delete(name string) error {
	s.mu.RLock()
	b := s.buckets[name]
	s.mu.RUnlock()
	if len(b.objects) > 0 {
		return errNotEmpty
	}
	s.mu.Lock() // want `s.mu is locked again for writing after RUnlock: the removal is decided by b, read under the read lock`
	delete(s.buckets, name)
	s.mu.Unlock()
	return nil
}

// CheckedBuckets tests the copy again under the write lock. Silent.
type CheckedBuckets struct {
	mu      sync.RWMutex
	buckets map[string]bucket
}

func (s *CheckedBuckets) Put(name, object string) {
	s.mu.Lock()
	b := s.buckets[name]
	b.objects = append(b.objects, object)
	s.buckets[name] = b
	s.mu.Unlock()
}

func (s *CheckedBuckets) Delete(name string) error {
	s.mu.RLock()
	b := s.buckets[name]
	s.mu.RUnlock()
	if len(b.objects) > 0 {
		return errNotEmpty
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if b := s.buckets[name]; len(b.objects) > 0 {
		return errNotEmpty
	}
	delete(s.buckets, name)
	return nil
}

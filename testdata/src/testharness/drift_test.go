package testharness

import (
	"sync"
	"testing"
)

// driftingStore plays a second writer: the first Get that finds an entry
// grows it in the stub before it answers, with the value it read, so the
// code under test works from an entry that has already changed.
type driftingStore struct {
	*stubStore
	drifted bool
}

// Get reads in one section of the stub's lock and writes in another.
// Only the tests below make a driftingStore, one at a time and on their
// own goroutine, and Mirror, which calls Get, starts no goroutine: the
// stub cannot change in between. Silent.
func (d *driftingStore) Get(key string) (Entry, bool) {
	e, ok := d.stubStore.Get(key)
	if ok && !d.drifted {
		d.drifted = true
		e.Size += 10
		d.stubStore.Put(key, e)
	}
	return e, ok
}

func TestMirrorOverDrift(t *testing.T) {
	store := newStubStore()
	store.Put("a", Entry{Size: 1})
	Mirror(&driftingStore{stubStore: store}, "a", Entry{Size: 2})
	if got := store.entry("a").Size; got != 11 {
		t.Fatalf("size %d, want 11", got)
	}
}

// sharedDriftStore drifts the same way, but a test hands it to Mirror on
// two goroutines at once: one's Put can land between the other's Get and
// its Put. Reported.
type sharedDriftStore struct {
	*stubStore
	mu      sync.Mutex
	drifted bool
}

func (d *sharedDriftStore) Get(key string) (Entry, bool) {
	e, ok := d.stubStore.Get(key)
	d.mu.Lock()
	first := !d.drifted
	d.drifted = true
	d.mu.Unlock()
	if ok && first {
		e.Size += 10
		d.stubStore.Put(key, e) // want `d.stubStore.mu is locked again by d.stubStore.Put after the section that checked: the value written derives from e, read in an earlier section`
	}
	return e, ok
}

func TestMirrorOverDriftTwice(t *testing.T) {
	store := newStubStore()
	store.Put("b", Entry{Size: 1})
	d := &sharedDriftStore{stubStore: store}
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			Mirror(d, "b", Entry{Size: 2})
		}()
	}
	wg.Wait()
}

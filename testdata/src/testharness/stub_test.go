package testharness

import (
	"sync"
	"testing"
)

// stubStore is the Store the tests hand to the code under test. The code
// under test writes it through the interface, on the test's behalf while
// the test waits; the tests also rewrite its entries directly between
// those calls, to set up the next step.
type stubStore struct {
	mu      sync.Mutex
	entries map[string]Entry
}

func newStubStore() *stubStore {
	return &stubStore{entries: make(map[string]Entry)}
}

func (s *stubStore) Get(key string) (Entry, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.entries[key]
	return e, ok
}

func (s *stubStore) Put(key string, e Entry) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.entries[key] = e
}

func (s *stubStore) entry(key string) Entry {
	e, _ := s.Get(key)
	return e
}

// TestMirrorGrown grows an entry Mirror wrote, after Mirror returned, and
// mirrors again: the only other writer of the entries is the code under
// test, which writes while the test waits for it. Silent.
func TestMirrorGrown(t *testing.T) {
	store := newStubStore()
	Mirror(store, "a", Entry{Size: 1})
	e, _ := store.Get("a")
	e.Size++
	store.Put("a", e)
	Mirror(store, "a", Entry{Size: 1})
	if got := store.entry("a").Size; got != 2 {
		t.Fatalf("size %d, want 2", got)
	}
}

// TestMirrorsGrown does the same through Mirrors, whose constructor
// starts a goroutine of the code under test's own: the test itself
// starts none, and Copy writes the stub before it returns. Silent.
func TestMirrorsGrown(t *testing.T) {
	store := newStubStore()
	m := NewMirrors(store)
	m.Copy("d", Entry{Size: 1})
	e, _ := store.Get("d")
	e.Size++
	store.Put("d", e)
}

// TestMirrorBeside runs Mirror on a goroutine of its own while the test
// rewrites the entry: Mirror's Put can land between the test's read and
// its write. Reported.
func TestMirrorBeside(t *testing.T) {
	store := newStubStore()
	done := make(chan struct{})
	go func() {
		defer close(done)
		Mirror(store, "b", Entry{Size: 1})
	}()
	e, _ := store.Get("b")
	e.Size++
	store.Put("b", e) // want `store.mu is locked again by store.Put after the section that checked: the value written derives from e, read in an earlier section`
	<-done
}

// TestMirrorRefilled has a goroutine of the test's own write the entry
// with the stub's Put: reported, as the test's other writers are.
func TestMirrorRefilled(t *testing.T) {
	store := newStubStore()
	done := make(chan struct{})
	go func() {
		defer close(done)
		store.Put("c", Entry{Size: 5})
	}()
	e, _ := store.Get("c")
	e.Size++
	store.Put("c", e) // want `store.mu is locked again by store.Put after the section that checked: the value written derives from e, read in an earlier section`
	<-done
}

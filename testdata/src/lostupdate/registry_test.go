package lostupdate

import (
	"sync"
	"testing"
)

// Stores is a registry of store addresses a test can take apart.
type Stores struct {
	mu    sync.RWMutex
	addrs map[int]string
}

func (s *Stores) Get(id int) string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.addrs[id]
}

func (s *Stores) Add(id int, addr string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.addrs[id] = addr
}

func (s *Stores) Remove(id int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.addrs, id)
}

// cluster is shared by the package's tests.
var cluster = &Stores{addrs: map[int]string{1: "a"}}

func probe(s *Stores) bool { return s.Get(1) == "" }

// TestRemoveRestore saves a store, removes it, and puts the saved copy
// back on purpose: the change in between is the test's own, on its one
// goroutine. Silent.
func TestRemoveRestore(t *testing.T) {
	saved := cluster.Get(1)
	cluster.Remove(1)
	if !probe(cluster) {
		t.Fatal("still there")
	}
	cluster.Add(1, saved)
}

// suite is a test suite whose Test methods run one after another.
type suite struct {
	t      *testing.T
	stores *Stores
}

// TestRestore is the same as a suite method. Silent.
func (s *suite) TestRestore() {
	saved := s.stores.Get(1)
	s.stores.Remove(1)
	if !probe(s.stores) {
		s.t.Fatal("still there")
	}
	s.stores.Add(1, saved)
}

// TestRemoveRestoreParallel shares the registry between parallel
// subtests: another subtest's change can be undone.
func TestRemoveRestoreParallel(t *testing.T) {
	for _, name := range []string{"x", "y"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			saved := cluster.Get(1)
			cluster.Remove(1)
			if !probe(cluster) {
				t.Fatal("still there")
			}
			cluster.Add(1, saved) // want `cluster.mu is locked again for writing by cluster.Add after RUnlock: the value written derives from saved`
		})
	}
}

// TestRemoveRestoreGroup runs the same work on goroutines a WaitGroup
// starts: they undo each other's changes.
func TestRemoveRestoreGroup(t *testing.T) {
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(func() {
			saved := cluster.Get(1)
			cluster.Remove(1)
			cluster.Add(1, saved) // want `cluster.mu is locked again for writing by cluster.Add after RUnlock: the value written derives from saved`
		})
	}
	wg.Wait()
}

// hammer runs f on n goroutines at once.
func hammer(n int, f func()) {
	var wg sync.WaitGroup
	wg.Add(n)
	for range n {
		go func() {
			defer wg.Done()
			f()
		}()
	}
	wg.Wait()
}

// TestRemoveRestoreHammered hands the work to a helper of the test file
// that runs it concurrently.
func TestRemoveRestoreHammered(t *testing.T) {
	hammer(4, func() {
		saved := cluster.Get(1)
		cluster.Remove(1)
		cluster.Add(1, saved) // want `cluster.mu is locked again for writing by cluster.Add after RUnlock: the value written derives from saved`
	})
}

// check runs f once, on the test's goroutine.
func check(t *testing.T, f func() bool) {
	if !f() {
		t.Fatal("check failed")
	}
}

// TestRemoveRestoreChecked calls a helper that runs its argument on the
// test's own goroutine. Silent.
func TestRemoveRestoreChecked(t *testing.T) {
	check(t, func() bool {
		saved := cluster.Get(1)
		cluster.Remove(1)
		cluster.Add(1, saved)
		return true
	})
}

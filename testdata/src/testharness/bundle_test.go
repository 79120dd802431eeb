package testharness

import (
	"sync"
	"testing"
)

// poolBundle is what a test's setup hands back: the code under test and
// the test's own bookkeeping beside it.
type poolBundle struct {
	pool *Pool
	mu   sync.RWMutex
	seen []string
}

func setupPool(t *testing.T) *poolBundle {
	t.Helper()
	return &poolBundle{pool: &Pool{conns: []string{"a", "b"}}}
}

// TestPutBackThroughBundle starts the pool's watcher, reaches the pool
// through the bundle, takes a look at its last connection and puts a copy
// back: the pool's lock is the code under test's, staged by hand while
// the watcher only reads. Silent.
func TestPutBackThroughBundle(t *testing.T) {
	b := setupPool(t)
	stop := b.pool.Watch(func(n int) { t.Logf("%d connections", n) })
	defer stop()
	b.pool.mu.RLock()
	last := b.pool.conns[len(b.pool.conns)-1]
	b.pool.mu.RUnlock()
	b.pool.Put(last)
	if got := len(b.pool.conns); got != 3 {
		t.Fatalf("got %d connections", got)
	}
}

// record is the bundle's own bookkeeping, written from the pool's
// callbacks on other goroutines: its lock is the test's, and checked.
func (b *poolBundle) record(c string) {
	b.mu.RLock()
	n := len(b.seen)
	b.mu.RUnlock()
	if n >= 8 {
		return
	}
	b.mu.Lock() // want `b.mu is locked again for writing after RUnlock`
	b.seen = append(b.seen, c)
	b.mu.Unlock()
}

func TestRecord(t *testing.T) {
	b := setupPool(t)
	var wg sync.WaitGroup
	for _, c := range []string{"x", "y"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b.record(c)
		}()
	}
	wg.Wait()
}

package mutexmaptests

import (
	"sync"
	"testing"
)

// A test resets its own message before it has started anything: the go
// test driver runs it alone.
func TestObserveCountsImprovements(t *testing.T) {
	trackers.Delete(t.Name())
	for _, v := range []float64{1, 3, 2, 5} {
		Observe(t.Name(), v)
	}
	if got := Sent(t.Name()); got != 3 {
		t.Fatalf("sent %d improvements, want 3", got)
	}
}

// So does each sub-benchmark, one after another.
func BenchmarkObserve(b *testing.B) {
	for _, name := range []string{"rising", "flat"} {
		b.Run(name, func(b *testing.B) {
			msg := b.Name()
			trackers.Delete(msg)
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				Observe(msg, float64(i))
			}
		})
	}
}

// A parallel test runs beside the others that reached Parallel.
func TestObserveParallel(t *testing.T) {
	t.Parallel()
	trackers.Delete("shared") // want `per-key mutex removed from trackers by Delete while another goroutine may hold or wait on it`
	Observe("shared", 1)
}

// Once the test has started its observers, one of them may hold the
// entry's lock when the test resets it.
func TestObserveConcurrently(t *testing.T) {
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			Observe(t.Name(), float64(i))
		}()
	}
	trackers.Delete(t.Name()) // want `per-key mutex removed from trackers by Delete while another goroutine may hold or wait on it`
	wg.Wait()
}

// A subtest of a parallel test runs beside the other parallel tests.
func TestObserveGroups(t *testing.T) {
	t.Parallel()
	for _, group := range []string{"a", "b"} {
		t.Run(group, func(t *testing.T) {
			trackers.Delete(t.Name()) // want `per-key mutex removed from trackers by Delete while another goroutine may hold or wait on it`
			Observe(t.Name(), 1)
		})
	}
}

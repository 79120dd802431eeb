// Package mutexmaptests keeps guidance per assertion message in a
// package-wide registry whose entries their users lock. Tests reset the
// entry of their own message before they use it.
package mutexmaptests

import (
	"math"
	"sync"
)

// guidance is the best value seen for one message, and how often a
// better one was sent on.
type guidance struct {
	mu   sync.Mutex
	best float64
	sent int
}

var trackers sync.Map // message -> *guidance

func tracker(msg string) *guidance {
	if g, ok := trackers.Load(msg); ok {
		return g.(*guidance)
	}
	g, _ := trackers.LoadOrStore(msg, &guidance{best: math.Inf(-1)})
	return g.(*guidance)
}

// Observe records v for msg and reports whether it beats the best value
// seen so far.
func Observe(msg string, v float64) bool {
	g := tracker(msg)
	g.mu.Lock()
	defer g.mu.Unlock()
	if v <= g.best {
		return false
	}
	g.best = v
	g.sent++
	return true
}

// Sent reports how often msg had a better value to send on.
func Sent(msg string) int {
	g := tracker(msg)
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.sent
}

// Forget drops the guidance for msg, while an Observe of it may be
// holding the entry's lock.
func Forget(msg string) {
	trackers.Delete(msg) // want `per-key mutex removed from trackers by Delete while another goroutine may hold or wait on it`
}

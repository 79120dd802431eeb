package checkthenact

import (
	"context"
	"sync"
)

// A watcher restarted by its owner: the old run is cancelled, a new one
// started, and its cancel function registered for cleanup by a closure
// that only reads it.

type Restarter struct {
	mu     sync.Mutex
	cancel context.CancelFunc
	done   chan struct{}
}

// Restart stores the cancel function it has just made, not the one it
// read: the closure capturing cancel only calls it.
func (r *Restarter) Restart(onCleanup func(func()), run func(context.Context, chan struct{})) {
	r.mu.Lock()
	cancel, done := r.cancel, r.done
	r.mu.Unlock()
	if done != nil {
		cancel()
		<-done
	}
	done = make(chan struct{})
	ctx, cancel := context.WithCancel(context.Background())
	onCleanup(func() {
		cancel()
		<-done
	})
	r.mu.Lock()
	r.cancel, r.done = cancel, done
	r.mu.Unlock()
	go run(ctx, done)
}

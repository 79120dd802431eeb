package lazyinit

import "sync"

// Relay gives each connected peer an outbox for the life of its
// connection. The "is the id free" check and the registration are separate
// sections: two connections with one id both register, the second replaces
// the first, and whichever leaves first deletes the other's outbox.
type Relay struct {
	mu       sync.RWMutex
	outboxes map[string]chan []byte
}

func (r *Relay) Serve(id string, in <-chan []byte) {
	r.mu.RLock()
	_, taken := r.outboxes[id]
	r.mu.RUnlock()
	joined := false
	if !taken {
		box := make(chan []byte, 8)
		r.mu.Lock() // want `r.mu is locked again for writing after RUnlock: r.outboxes\[id\] was missing under the read lock, but another goroutine may have stored one since and this store replaces it`
		r.outboxes[id] = box
		r.mu.Unlock()
		joined = true
	}
	for range in {
	}
	if joined {
		// Follows from the race above, which is reported once there.
		r.mu.Lock()
		delete(r.outboxes, id)
		r.mu.Unlock()
	}
}

// ServeChecked registers only if the id is still free under the write lock,
// and deletes only its own outbox: silent.
func (r *Relay) ServeChecked(id string, in <-chan []byte) {
	box := make(chan []byte, 8)
	r.mu.Lock()
	_, taken := r.outboxes[id]
	if !taken {
		r.outboxes[id] = box
	}
	r.mu.Unlock()
	if taken {
		return
	}
	for range in {
	}
	r.mu.Lock()
	if r.outboxes[id] == box {
		delete(r.outboxes, id)
	}
	r.mu.Unlock()
}

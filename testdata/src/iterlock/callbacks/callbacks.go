package callbacks

import "sync"

// Collections that call a function of the caller's while holding their
// lock: a Range that visits entries under the read lock, a WithLock that
// hands over the map under the write lock. The function runs under the
// lock; one that takes it again waits for itself.

type Registry struct {
	mu    sync.RWMutex
	peers map[string]int
}

// Range calls f for every peer under the read lock.
func (r *Registry) Range(f func(name string, score int) bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	for name, score := range r.peers {
		if !f(name, score) {
			return
		}
	}
}

func (r *Registry) Remove(name string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.peers, name)
}

// DropLow removes from inside Range: Remove's Lock waits for Range's
// read lock, which waits for the callback.
func (r *Registry) DropLow(min int) {
	r.Range(func(name string, score int) bool {
		if score < min {
			r.Remove(name) // want `r.mu is held for reading by r.Range while it runs the function handed to it, and r.Remove takes its write lock, which waits for every reader, r.Range too: r.Range never returns; collect what the function finds and act on it after r.Range returns`
		}
		return true
	})
}

// DropLowAfter collects and removes after Range returns: silent.
func (r *Registry) DropLowAfter(min int) {
	var low []string
	r.Range(func(name string, score int) bool {
		if score < min {
			low = append(low, name)
		}
		return true
	})
	for _, name := range low {
		r.Remove(name)
	}
}

func (r *Registry) Len() int {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return len(r.peers)
}

// WithLock hands f the map under the write lock.
func (r *Registry) WithLock(f func(peers map[string]int)) {
	r.mu.Lock()
	defer r.mu.Unlock()
	f(r.peers)
}

// Cap asks for the size from inside WithLock: Len's RLock waits for the
// write lock WithLock holds.
func (r *Registry) Cap(max int) {
	r.WithLock(func(peers map[string]int) {
		if r.Len() > max { // want `r.mu is held for writing by r.WithLock while it runs the function handed to it, and r.Len takes it again: sync.RWMutex is not reentrant, so r.WithLock never returns`
			clear(peers)
		}
	})
}

// CapHeld uses the map it was handed: silent.
func (r *Registry) CapHeld(max int) {
	r.WithLock(func(peers map[string]int) {
		if len(peers) > max {
			clear(peers)
		}
	})
}

// Each copies the peers under the lock and calls f without it.
func (r *Registry) Each(f func(name string)) {
	r.mu.RLock()
	names := make([]string, 0, len(r.peers))
	for name := range r.peers {
		names = append(names, name)
	}
	r.mu.RUnlock()
	for _, name := range names {
		f(name)
	}
}

// Forget removes from inside Each, which holds nothing while f runs:
// silent.
func (r *Registry) Forget(drop func(string) bool) {
	r.Each(func(name string) {
		if drop(name) {
			r.Remove(name)
		}
	})
}

// Notify runs f on its own goroutine: the lock is not held while it
// runs. Silent.
func (r *Registry) Notify(f func()) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	go f()
}

func (r *Registry) Changed() {
	r.Notify(func() { r.Remove("stale") })
}

// Visit calls f under the lock only when asked to: not at every call,
// so no report. Silent.
func (r *Registry) Visit(f func(string), locked bool) {
	if locked {
		r.mu.RLock()
		defer r.mu.RUnlock()
	}
	for name := range r.peers {
		f(name)
	}
}

func (r *Registry) Trim() {
	r.Visit(func(name string) { r.Remove(name) }, false)
}

// Publish calls done(nil) under the lock when no one waits for an
// answer, and hands done to the waiter otherwise, which calls it later
// without the lock. The callback removes only on an error: never on the
// call made under the lock. Silent.
func (r *Registry) Publish(name string, waiter chan<- func(error), done func(error)) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.peers[name] = 0
	if waiter != nil {
		waiter <- done
		return
	}
	done(nil)
}

func (r *Registry) Announce(name string, waiter chan<- func(error)) {
	r.Publish(name, waiter, func(err error) {
		if err != nil {
			r.Remove(name)
		}
	})
}

// AnnounceOnce drops the previous entry on every call: done runs under
// the lock and removes whatever it is told.
func (r *Registry) AnnounceOnce(name, previous string) {
	r.Publish(name, nil, func(error) {
		r.Remove(previous) // want `r.mu is held for writing by r.Publish while it runs the function handed to it, and r.Remove takes it again`
	})
}

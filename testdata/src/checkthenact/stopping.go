package checkthenact

import "sync"

// Relay forwards events while its pump runs; stopping drains it.
type Relay struct {
	mu     sync.Mutex
	active bool
	pump   *pump
}

type pump struct{ stop chan struct{} }

func (r *Relay) running() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.active && r.pump != nil
}

// Stop asks running() only to skip the work early: the next section tests
// the pump again under the lock and takes it (clears its stop
// channel) before the drain, so a second Stop gives up there, and the
// last section acts on what that section decided. Silent.
func (r *Relay) Stop(drain func()) {
	if !r.running() {
		return
	}
	r.mu.Lock()
	if r.pump == nil || r.pump.stop == nil {
		r.mu.Unlock()
		return
	}
	close(r.pump.stop)
	r.pump.stop = nil
	r.mu.Unlock()
	drain()
	r.mu.Lock()
	r.pump = nil
	r.mu.Unlock()
}

// Halt tests the pump again in the middle section but takes nothing
// there: two Halts both pass it, and both drain and clear.
func (r *Relay) Halt(drain func()) {
	if !r.running() {
		return
	}
	r.mu.Lock()
	ok := r.pump != nil
	r.mu.Unlock()
	if !ok {
		return
	}
	drain()
	r.mu.Lock() // want `r.mu is locked again after the section that checked: the write is decided by r.running\(\), read in an earlier section`
	r.pump = nil
	r.mu.Unlock()
}

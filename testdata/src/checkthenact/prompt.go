package checkthenact

import (
	"errors"
	"sync"
)

// An account registry that asks its user to accept terms only when
// called interactively. Every call of register passes false: the prompt
// branch, whose test and store sit in two sections, never runs.
// enroll's prompt is the caller's choice, so its gap is reported.

type registry struct {
	mu     sync.Mutex
	agreed bool
	ask    func() bool
}

func (r *registry) hasAgreed() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.agreed
}

func (r *registry) register(interactive bool) error {
	if interactive {
		if !r.hasAgreed() {
			if !r.ask() {
				return errors.New("terms not accepted")
			}
			r.mu.Lock()
			r.agreed = true
			r.mu.Unlock()
		}
		return nil
	}
	r.mu.Lock()
	r.agreed = true
	r.mu.Unlock()
	return nil
}

func (r *registry) Renew() error  { return r.register(false) }
func (r *registry) Rotate() error { return r.register(false) }

func (r *registry) enroll(prompt bool) error {
	if prompt {
		if !r.hasAgreed() {
			if !r.ask() {
				return errors.New("terms not accepted")
			}
			r.mu.Lock() // want `r.mu is locked again after the section that checked: the write is decided by r.hasAgreed\(\), read in an earlier section, which may be stale; re-check it in this section`
			r.agreed = true
			r.mu.Unlock()
		}
	}
	return nil
}

func (r *registry) Enroll(prompt bool) error { return r.enroll(prompt) }
func (r *registry) Join() error              { return r.enroll(false) }

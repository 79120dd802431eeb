package checkthenact

import (
	"sync"
	"time"
)

// A pacer the package hands out only as its Next method value. Wait,
// which holds the lock and calls Next, and Reset, which decides in one
// section and writes in another, have no caller, and a pacer never
// becomes an interface value: no program can run them, so nothing is
// reported there. The twins below are reported: the same Wait called
// through a closure the package hands out (retryPacer), and a pacer made
// into an interface value, whose dynamic calls the package cannot see
// (boxedPacer).

type pacer struct {
	mu    sync.Mutex
	delay time.Duration
	max   time.Duration
	timer *time.Timer
}

func (p *pacer) Next() time.Duration {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.delay < p.max {
		p.delay *= 2
	}
	return p.delay
}

func (p *pacer) Wait() *time.Timer {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.timer == nil {
		p.timer = time.NewTimer(p.Next())
	}
	return p.timer
}

func (p *pacer) Reset(start time.Duration) {
	p.mu.Lock()
	grown := p.delay > start
	p.mu.Unlock()
	if grown {
		p.mu.Lock()
		p.delay = start
		p.mu.Unlock()
	}
}

// NewPacing hands out the pacer's Next, nothing else.
func NewPacing(start, max time.Duration) func() time.Duration {
	return (&pacer{delay: start, max: max}).Next
}

type retryPacer struct {
	mu    sync.Mutex
	delay time.Duration
	timer *time.Timer
}

func (p *retryPacer) Next() time.Duration {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.delay *= 2
	return p.delay
}

func (p *retryPacer) Wait() *time.Timer {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.timer == nil {
		p.timer = time.NewTimer(p.Next()) // want `p.mu is held here and p.Next locks it again: sync.Mutex is not reentrant, so the call never returns; call a variant that expects the lock held, or unlock before the call`
	}
	return p.timer
}

// NewRetryWait hands out a closure calling Wait.
func NewRetryWait(start time.Duration) func() *time.Timer {
	p := &retryPacer{delay: start}
	return func() *time.Timer { return p.Wait() }
}

type stepper interface{ Next() time.Duration }

type boxedPacer struct {
	mu    sync.Mutex
	delay time.Duration
}

func (p *boxedPacer) Next() time.Duration {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.delay *= 2
	return p.delay
}

func (p *boxedPacer) Reset(start time.Duration) {
	p.mu.Lock()
	grown := p.delay > start
	p.mu.Unlock()
	if grown {
		p.mu.Lock() // want `p.mu is locked again after the section that checked`
		p.delay = start
		p.mu.Unlock()
	}
}

// NewStepper hands a boxedPacer out as an interface value: a caller
// holding it may assert it to any interface with Reset.
func NewStepper(start time.Duration) stepper {
	return &boxedPacer{delay: start}
}

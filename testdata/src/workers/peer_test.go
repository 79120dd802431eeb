package workers

import (
	"sync"
	"testing"
)

// fakePeer is a test double whose loop goroutine, started once per peer by
// the test code, is the only writer of acked: the count it read cannot go
// stale before it stores the next one. Silent.
type fakePeer struct {
	mu    sync.RWMutex
	acked int
	in    chan string
}

func startFakePeer() *fakePeer {
	p := &fakePeer{in: make(chan string, 8)}
	go p.loop()
	return p
}

func (p *fakePeer) loop() {
	for msg := range p.in {
		p.mu.RLock()
		n := p.acked
		p.mu.RUnlock()
		if msg == "" {
			continue
		}
		p.mu.Lock()
		p.acked = n + 1
		p.mu.Unlock()
	}
}

func (p *fakePeer) count() int {
	p.mu.RLock()
	defer p.mu.RUnlock()
	return p.acked
}

// fakeRelay is the same, but tests may reset it from their own goroutine:
// a Reset in the loop's gap is undone.
type fakeRelay struct {
	mu    sync.RWMutex
	acked int
	in    chan string
}

func startFakeRelay() *fakeRelay {
	r := &fakeRelay{in: make(chan string, 8)}
	go r.loop()
	return r
}

func (r *fakeRelay) loop() {
	for msg := range r.in {
		r.mu.RLock()
		n := r.acked
		r.mu.RUnlock()
		if msg == "" {
			continue
		}
		r.mu.Lock() // want `r.mu is locked again for writing after RUnlock: the value written derives from n`
		r.acked = n + 1
		r.mu.Unlock()
	}
}

func (r *fakeRelay) Reset() {
	r.mu.Lock()
	r.acked = 0
	r.mu.Unlock()
}

func TestFakes(t *testing.T) {
	p := startFakePeer()
	p.in <- "hello"
	close(p.in)
	_ = p.count()
	r := startFakeRelay()
	r.in <- "hello"
	r.Reset()
	close(r.in)
}

package testharness

import (
	"sync"
	"testing"
)

// TestPutBack takes the last connection out and, after the pool has had a
// chance to notice, puts the very same one back: a race staged on purpose
// with the pool's own lock. Silent.
func TestPutBack(t *testing.T) {
	p := &Pool{conns: []string{"a", "b"}}
	done := make(chan struct{})
	go func() {
		defer close(done)
		var taken string
		p.mu.Lock()
		if n := len(p.conns); n > 0 {
			taken = p.conns[n-1]
			p.conns = p.conns[:n-1]
		}
		p.mu.Unlock()
		p.Put("c")
		if taken != "" {
			p.mu.Lock()
			p.conns = append(p.conns, taken)
			p.mu.Unlock()
		}
	}()
	<-done
}

// loseHit bumps the hit counter from a value read earlier, so that tests
// can check what the pool does when a caller loses an update. Silent.
func loseHit(p *Pool) {
	p.mu.RLock()
	prev := p.hits
	p.mu.RUnlock()
	p.Put("x")
	p.mu.Lock()
	p.hits = prev + 1
	p.mu.Unlock()
}

func TestLostHit(t *testing.T) {
	loseHit(&Pool{})
}

// fakeClock is declared by the tests and used by several goroutines of a
// test: its own gaps are real and still reported.
type fakeClock struct {
	mu    sync.RWMutex
	ticks int
}

func (c *fakeClock) Advance() {
	c.mu.RLock()
	n := c.ticks
	c.mu.RUnlock()
	c.mu.Lock() // want `c.mu is locked again for writing after RUnlock: the value written derives from n`
	c.ticks = n + 1
	c.mu.Unlock()
}

func TestClock(t *testing.T) {
	c := &fakeClock{}
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(c.Advance)
	}
	wg.Wait()
}

// fakeSink is another fake of the tests, bounded by a check in one
// section and filled in the next: reported.
type fakeSink struct {
	mu   sync.Mutex
	msgs []string
	max  int
}

func (s *fakeSink) Send(m string) bool {
	s.mu.Lock()
	full := len(s.msgs) >= s.max
	s.mu.Unlock()
	if full {
		return false
	}
	s.mu.Lock() // want `s.mu is locked again after the section that checked: the write is decided by full`
	s.msgs = append(s.msgs, m)
	s.mu.Unlock()
	return true
}

func TestAddBare(t *testing.T) {
	l := &Layers{nodes: map[string]*layer{"base": {root: "base"}}}
	if !l.add("top", "base") {
		t.Fatal("add failed")
	}
}

// TestGrowTo calls the pool's own methods one after another; a decision
// between them is the test's sequence, not a race. Silent.
func TestGrowTo(t *testing.T) {
	p := newTestPool()
	for p.Len() < 3 {
		p.Grow("c")
	}
}

func newTestPool() *Pool { return &Pool{} }

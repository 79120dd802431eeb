// Package ticker calls a flush function periodically. Every keeps the
// function for the one goroutine it starts, which alone calls it; the
// others do not.
package ticker

import (
	"sync"
	"time"
)

// Flusher calls its flush function every period, and once more when
// stopped, from its own goroutine.
type Flusher struct {
	period time.Duration
	flush  func()
	stop   chan struct{}
	done   chan struct{}
	once   sync.Once
}

// Every starts a Flusher.
func Every(period time.Duration, flush func()) *Flusher {
	if flush == nil {
		panic("ticker: nil flush")
	}
	f := &Flusher{period: period, flush: flush, stop: make(chan struct{}), done: make(chan struct{})}
	go f.loop()
	return f
}

func (f *Flusher) loop() {
	t := time.NewTicker(f.period)
	defer t.Stop()
	defer close(f.done)
	for {
		select {
		case <-t.C:
			f.flush()
		case <-f.stop:
			f.flush()
			return
		}
	}
}

// Stop waits for the last flush.
func (f *Flusher) Stop() {
	f.once.Do(func() { close(f.stop) })
	<-f.done
}

// Pulse is a Flusher that can also be made to flush at once, on the
// caller's goroutine: its function may run twice at a time.
type Pulse struct {
	period time.Duration
	fn     func()
}

// NewPulse starts a Pulse.
func NewPulse(period time.Duration, fn func()) *Pulse {
	p := &Pulse{period: period, fn: fn}
	go p.loop()
	return p
}

func (p *Pulse) loop() {
	for range time.Tick(p.period) {
		p.fn()
	}
}

// Kick flushes now.
func (p *Pulse) Kick() { p.fn() }

// Workers calls fn every period from n goroutines.
func Workers(n int, period time.Duration, fn func()) {
	w := &worker{period: period, fn: fn}
	for range n {
		go w.loop()
	}
}

type worker struct {
	period time.Duration
	fn     func()
}

func (w *worker) loop() {
	for range time.Tick(w.period) {
		w.fn()
	}
}

// Burst calls fn every period from its own goroutine, and once at
// start, on the caller's goroutine, while its own may already run fn.
type Burst struct {
	period time.Duration
	fn     func()
}

// NewBurst starts a Burst.
func NewBurst(period time.Duration, fn func()) *Burst {
	b := &Burst{period: period, fn: fn}
	go b.loop()
	b.fn()
	return b
}

func (b *Burst) loop() {
	for range time.Tick(b.period) {
		b.fn()
	}
}

// Ticks calls fn every period from its own goroutine; a copy of the
// value runs fn at once on the caller's goroutine.
type Ticks struct {
	period time.Duration
	fn     func()
}

// NewTicks starts a Ticks.
func NewTicks(period time.Duration, fn func()) *Ticks {
	t := &Ticks{period: period, fn: fn}
	go t.loop()
	return t
}

func (t *Ticks) loop() {
	for range time.Tick(t.period) {
		t.fn()
	}
}

func (t *Ticks) snapshot() Ticks { return *t }

// Now runs fn at once, from a snapshot of the Ticks.
func (t *Ticks) Now() { t.snapshot().fn() }

// Package exporter turns buffered samples into series on every flush of
// a periodic flusher from package ticker.
package exporter

import (
	"sync"
	"time"

	"crosspkg/ticker"
)

type sample struct {
	name  string
	value float64
}

type series struct {
	name  string
	total float64
}

// buffer collects samples from any goroutine until a flush takes them.
type buffer struct {
	mu      sync.Mutex
	samples []sample
}

func (b *buffer) Add(s sample) {
	b.mu.Lock()
	b.samples = append(b.samples, s)
	b.mu.Unlock()
}

func (b *buffer) take() []sample {
	b.mu.Lock()
	defer b.mu.Unlock()
	s := b.samples
	b.samples = nil
	return s
}

// Exporter's series are made on first use by flush, which only the
// flusher's goroutine calls: no one else stores a series.
type Exporter struct {
	buffer
	series  sync.Map // name -> *series
	flusher *ticker.Flusher
}

func (x *Exporter) Start() {
	x.flusher = ticker.Every(time.Second, x.flush)
}

func (x *Exporter) Stop() { x.flusher.Stop() }

func (x *Exporter) flush() {
	for _, s := range x.take() {
		x.seriesFor(s.name).total += s.value
	}
}

func (x *Exporter) seriesFor(name string) *series {
	if s, ok := x.series.Load(name); ok {
		return s.(*series)
	}
	s := &series{name: name}
	x.series.Store(name, s)
	return s
}

// Pusher's flush also runs when a caller kicks the pulse, beside the
// pulse's own goroutine.
type Pusher struct {
	buffer
	series sync.Map
	pulse  *ticker.Pulse
}

func (x *Pusher) Start() {
	x.pulse = ticker.NewPulse(time.Second, x.flush)
}

func (x *Pusher) PushNow() { x.pulse.Kick() }

func (x *Pusher) flush() {
	for _, s := range x.take() {
		x.seriesFor(s.name).total += s.value
	}
}

func (x *Pusher) seriesFor(name string) *series {
	if s, ok := x.series.Load(name); ok {
		return s.(*series)
	}
	s := &series{name: name}
	x.series.Store(name, s) // want `x.series.Store stores what x.series.Load found missing`
	return s
}

// Batcher flushes once more on Close, on the caller's goroutine, while
// the flusher's may still be flushing.
type Batcher struct {
	buffer
	series  sync.Map
	flusher *ticker.Flusher
}

func (x *Batcher) Start() {
	x.flusher = ticker.Every(time.Second, x.flush)
}

func (x *Batcher) Close() { x.flush() }

func (x *Batcher) flush() {
	for _, s := range x.take() {
		x.seriesFor(s.name).total += s.value
	}
}

func (x *Batcher) seriesFor(name string) *series {
	if s, ok := x.series.Load(name); ok {
		return s.(*series)
	}
	s := &series{name: name}
	x.series.Store(name, s) // want `x.series.Store stores what x.series.Load found missing`
	return s
}

// Sharded starts a flusher per shard, all flushing the same series.
type Sharded struct {
	buffer
	shards int
	series sync.Map
}

func (x *Sharded) Start() {
	for range x.shards {
		ticker.Every(time.Second, x.flush)
	}
}

func (x *Sharded) flush() {
	for _, s := range x.take() {
		x.seriesFor(s.name).total += s.value
	}
}

func (x *Sharded) seriesFor(name string) *series {
	if s, ok := x.series.Load(name); ok {
		return s.(*series)
	}
	s := &series{name: name}
	x.series.Store(name, s) // want `x.series.Store stores what x.series.Load found missing`
	return s
}

// Pooled hands its flush to several workers at once.
type Pooled struct {
	buffer
	series sync.Map
}

func (x *Pooled) Start() {
	ticker.Workers(4, time.Second, x.flush)
}

func (x *Pooled) flush() {
	for _, s := range x.take() {
		x.seriesFor(s.name).total += s.value
	}
}

func (x *Pooled) seriesFor(name string) *series {
	if s, ok := x.series.Load(name); ok {
		return s.(*series)
	}
	s := &series{name: name}
	x.series.Store(name, s) // want `x.series.Store stores what x.series.Load found missing`
	return s
}

// Every Relay has a flusher of its own, but all write one package-wide
// series map.
var relayed sync.Map

type Relay struct {
	buffer
}

func (x *Relay) Start() {
	ticker.Every(time.Second, x.flush)
}

func (x *Relay) flush() {
	for _, s := range x.take() {
		relayedSeries(s.name).total += s.value
	}
}

func relayedSeries(name string) *series {
	if s, ok := relayed.Load(name); ok {
		return s.(*series)
	}
	s := &series{name: name}
	relayed.Store(name, s) // want `relayed.Store stores what relayed.Load found missing`
	return s
}

// Streamer's flush is exported: its users may call it beside the
// flusher's goroutine.
type Streamer struct {
	buffer
	series sync.Map
}

func (x *Streamer) Start() {
	ticker.Every(time.Second, x.Flush)
}

func (x *Streamer) Flush() {
	for _, s := range x.take() {
		x.seriesFor(s.name).total += s.value
	}
}

func (x *Streamer) seriesFor(name string) *series {
	if s, ok := x.series.Load(name); ok {
		return s.(*series)
	}
	s := &series{name: name}
	x.series.Store(name, s) // want `x.series.Store stores what x.series.Load found missing`
	return s
}

// Eager flushes once at once on its own goroutine, beside the flusher's.
type Eager struct {
	buffer
	series sync.Map
}

func (x *Eager) Start() {
	ticker.NewBurst(time.Second, x.flush)
}

func (x *Eager) flush() {
	for _, s := range x.take() {
		x.seriesFor(s.name).total += s.value
	}
}

func (x *Eager) seriesFor(name string) *series {
	if s, ok := x.series.Load(name); ok {
		return s.(*series)
	}
	s := &series{name: name}
	x.series.Store(name, s) // want `x.series.Store stores what x.series.Load found missing`
	return s
}

// Prompt's ticks can also be run at once by a copy of them.
type Prompt struct {
	buffer
	series sync.Map
}

func (x *Prompt) Start() {
	ticker.NewTicks(time.Second, x.flush)
}

func (x *Prompt) flush() {
	for _, s := range x.take() {
		x.seriesFor(s.name).total += s.value
	}
}

func (x *Prompt) seriesFor(name string) *series {
	if s, ok := x.series.Load(name); ok {
		return s.(*series)
	}
	s := &series{name: name}
	x.series.Store(name, s) // want `x.series.Store stores what x.series.Load found missing`
	return s
}

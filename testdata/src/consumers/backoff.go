// Package consumers holds retry queues drained by one event-loop
// goroutine while other goroutines feed them.
package consumers

import (
	"sync"
	"time"
)

type retry struct {
	events  []string
	expires time.Time
}

func (r *retry) expired() bool { return time.Now().After(r.expires) }

// Backoff parks the events of failing ids until their retry time.
type Backoff struct {
	mu    sync.Mutex
	queue map[string]*retry
}

// park queues an event: onto the id's entry if there is one, else into a
// new entry. It never removes or replaces an entry.
func (b *Backoff) park(id, ev string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if r, ok := b.queue[id]; ok {
		r.events = append(r.events, ev)
		return
	}
	b.queue[id] = &retry{events: []string{ev}, expires: time.Now().Add(time.Second)}
}

func (b *Backoff) due() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	var ids []string
	for id, r := range b.queue {
		if r.expired() {
			ids = append(ids, id)
		}
	}
	return ids
}

func (b *Backoff) take(id string) *retry {
	b.mu.Lock()
	defer b.mu.Unlock()
	r := b.queue[id]
	delete(b.queue, id)
	return r
}

// Loop is the one goroutine that takes entries out; exit watchers only
// park events. An entry found due stays there, and due, until the loop
// itself takes it. Silent.
type Loop struct {
	backoff *Backoff
	handle  func(string) error
	tick    <-chan time.Time
}

func (l *Loop) Start() {
	go func() {
		for range l.tick {
			for _, id := range l.backoff.due() {
				for _, ev := range l.backoff.take(id).events {
					_ = l.handle(ev)
				}
			}
		}
	}()
}

// Watch runs on a goroutine per watched task.
func (l *Loop) watch(id string, exits <-chan string) {
	for ev := range exits {
		if l.handle(ev) != nil {
			l.backoff.park(id, ev)
		}
	}
}

func (l *Loop) Watch(id string, exits <-chan string) { go l.watch(id, exits) }

// Renewing is the same loop over a queue whose feeders replace entries
// (renewing the retry time): an entry found due may be a fresh one by the
// time the loop takes it.
type Renewing struct {
	mu    sync.Mutex
	queue map[string]*retry
	tick  <-chan time.Time
}

func (b *Renewing) renew(id, ev string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.queue[id] = &retry{events: []string{ev}, expires: time.Now().Add(time.Second)}
}

func (b *Renewing) due() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	var ids []string
	for id, r := range b.queue {
		if r.expired() {
			ids = append(ids, id)
		}
	}
	return ids
}

func (b *Renewing) take(id string) *retry {
	b.mu.Lock()
	defer b.mu.Unlock()
	r := b.queue[id]
	delete(b.queue, id)
	return r
}

func (b *Renewing) Start(handle func(string)) {
	go func() {
		for range b.tick {
			for _, id := range b.due() {
				for _, ev := range b.take(id).events { // want `b.mu is locked again by b.take after the section that checked: the write is decided by b.due\(\)`
					handle(ev)
				}
			}
		}
	}()
}

func (b *Renewing) Watch(id string, exits <-chan string) {
	go func() {
		for ev := range exits {
			b.renew(id, ev)
		}
	}()
}

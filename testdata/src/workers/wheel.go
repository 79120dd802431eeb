package workers

import (
	"sync"
	"time"
)

// Slots maps a timer's key to the slot it waits in. It locks for itself,
// so any goroutine may use one.
type Slots struct {
	mu  sync.RWMutex
	pos map[string]int
}

func NewSlots() *Slots { return &Slots{pos: map[string]int{}} }

func (s *Slots) Get(key string) (int, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	p, ok := s.pos[key]
	return p, ok
}

func (s *Slots) Set(key string, p int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pos[key] = p
}

func (s *Slots) Del(key string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.pos, key)
}

type timer struct {
	key   string
	delay time.Duration
}

// wheel keeps its Slots to its run loop: callers hand timers over the
// channels, and only the loop looks a key up and places it. Other
// goroutines use other Slots; none can change this one between the
// loop's Get and its Set.
type wheel struct {
	slots   *Slots
	tick    time.Duration
	setC    chan timer
	removeC chan string
}

func newWheel(tick time.Duration) *wheel {
	w := &wheel{slots: NewSlots(), tick: tick, setC: make(chan timer), removeC: make(chan string)}
	go w.run()
	return w
}

func (w *wheel) SetTimer(key string, delay time.Duration) { w.setC <- timer{key, delay} }

func (w *wheel) RemoveTimer(key string) { w.removeC <- key }

func (w *wheel) run() {
	for {
		select {
		case t := <-w.setC:
			w.place(t)
		case key := <-w.removeC:
			w.slots.Del(key)
		}
	}
}

func (w *wheel) place(t timer) {
	slot := int(t.delay / w.tick)
	if old, ok := w.slots.Get(t.key); ok && old <= slot {
		return
	}
	w.slots.Set(t.key, slot)
}

// exposedWheel has the same loop, but hands its Slots out: whoever holds
// them may Set a key between the loop's Get and its Set.
type exposedWheel struct {
	slots *Slots
	tick  time.Duration
	setC  chan timer
}

func newExposedWheel(tick time.Duration) *exposedWheel {
	w := &exposedWheel{slots: NewSlots(), tick: tick, setC: make(chan timer)}
	go w.run()
	return w
}

func (w *exposedWheel) Slots() *Slots { return w.slots }

func (w *exposedWheel) run() {
	for t := range w.setC {
		w.place(t)
	}
}

func (w *exposedWheel) place(t timer) {
	slot := int(t.delay / w.tick)
	if old, ok := w.slots.Get(t.key); ok && old <= slot {
		return
	}
	w.slots.Set(t.key, slot) // want `w.slots.mu is locked again for writing by w.slots.Set after RUnlock`
}

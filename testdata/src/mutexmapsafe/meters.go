package mutexmapsafe

import (
	"sync"
	"time"
)

// meter keeps a moving rate for one route. Its lock guards its own
// figures, taken and let go inside its methods (tick lets go in a
// deferred function that stamps the window first): the registry does not
// use it as a lock per route, and dropping a meter loses nothing.
type meter struct {
	mu    sync.Mutex
	bytes uint64
	rate  float64
	since time.Time
}

func (m *meter) add(n uint64) {
	m.mu.Lock()
	m.bytes += n
	m.mu.Unlock()
}

func (m *meter) tick(now time.Time) {
	m.mu.Lock()
	defer func() {
		m.since = now
		m.mu.Unlock()
	}()
	if secs := now.Sub(m.since).Seconds(); secs > 0 {
		m.rate = float64(m.bytes) / secs
		m.bytes = 0
	}
}

type Meters struct {
	mu     sync.RWMutex
	routes map[string]*meter
}

func NewMeters() *Meters { return &Meters{routes: map[string]*meter{}} }

func (r *Meters) Record(route string, n uint64) {
	r.mu.Lock()
	m, ok := r.routes[route]
	if !ok {
		m = &meter{since: time.Now()}
		r.routes[route] = m
	}
	r.mu.Unlock()
	m.add(n)
}

func (r *Meters) Tick() {
	r.mu.RLock()
	defer r.mu.RUnlock()
	for _, m := range r.routes {
		m.tick(time.Now())
	}
}

func (r *Meters) Flush(route string) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if m := r.routes[route]; m != nil {
		m.tick(time.Now())
	}
}

func (r *Meters) Drop(route string) {
	r.mu.Lock()
	delete(r.routes, route)
	r.mu.Unlock()
}

// turnstile is locked by its users: lock hands back the function that
// lets go, so the registry's callers hold a turnstile per route across
// their own work, and dropping one lets a newcomer in beside a holder.
type turnstile struct {
	mu     sync.Mutex
	passed int
}

func (t *turnstile) lock() (unlock func()) {
	t.mu.Lock()
	t.passed++
	return func() { t.mu.Unlock() }
}

type Gates struct {
	mu    sync.Mutex
	gates map[string]*turnstile
}

func NewGates() *Gates { return &Gates{gates: map[string]*turnstile{}} }

func (g *Gates) Pass(route string, work func()) {
	g.mu.Lock()
	t, ok := g.gates[route]
	if !ok {
		t = &turnstile{}
		g.gates[route] = t
	}
	g.mu.Unlock()
	unlock := t.lock()
	defer unlock()
	work()
}

func (g *Gates) Drop(route string) {
	g.mu.Lock()
	delete(g.gates, route) // want `per-key mutex removed from g.gates by delete while another goroutine may hold or wait on it`
	g.mu.Unlock()
}

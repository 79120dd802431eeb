package workers

import (
	"reflect"
	"sync"
	"time"
)

// Limits is a set of thresholds rebuilt whenever the configuration they
// come from changes; request goroutines read them under the read lock.
type Limits struct {
	load func() map[string]int

	mu     sync.RWMutex
	config map[string]int
	byName map[string]*limit

	startOnce sync.Once
	stop      chan struct{}
}

type limit struct{ max, used int }

// LimitsOption configures a Limits before its first rebuild.
type LimitsOption func(*Limits)

func WithLoader(load func() map[string]int) LimitsOption {
	return func(l *Limits) { l.load = load }
}

// NewLimits seeds the thresholds before anyone can see the object (the
// options only set its fields); after that only the one goroutine Start
// begins rebuilds them.
func NewLimits(opts ...LimitsOption) *Limits {
	l := &Limits{stop: make(chan struct{})}
	for _, opt := range opts {
		opt(l)
	}
	l.rebuild()
	return l
}

func (l *Limits) Start() {
	l.startOnce.Do(func() {
		go func() {
			t := time.NewTicker(time.Minute)
			defer t.Stop()
			for {
				select {
				case <-l.stop:
					return
				case <-t.C:
					l.rebuild()
				}
			}
		}()
	})
}

func (l *Limits) changed(config map[string]int) bool {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return l.byName == nil || !reflect.DeepEqual(config, l.config)
}

// rebuild is decided under the read lock and writes under the write lock,
// but each object has one rebuilder at a time: silent.
func (l *Limits) rebuild() {
	config := l.load()
	if !l.changed(config) {
		return
	}
	byName := make(map[string]*limit, len(config))
	for name, max := range config {
		byName[name] = &limit{max: max}
	}
	l.mu.Lock()
	l.byName = byName
	l.config = config
	l.mu.Unlock()
}

func (l *Limits) Allow(name string) bool {
	l.mu.RLock()
	defer l.mu.RUnlock()
	lim := l.byName[name]
	return lim == nil || lim.used < lim.max
}

// Shares is that refresher with an option that lets the object out to a
// registry before the seed: whoever finds it there may start it early.
type Shares struct {
	mu     sync.RWMutex
	config map[string]int
	byName map[string]int
	load   func() map[string]int

	startOnce sync.Once
}

type SharesOption func(*Shares)

var registry = map[string]*Shares{}

func Registered(name string) SharesOption {
	return func(s *Shares) { registry[name] = s }
}

func NewShares(load func() map[string]int, opts ...SharesOption) *Shares {
	s := &Shares{load: load}
	for _, opt := range opts {
		opt(s)
	}
	s.rebuild()
	return s
}

func (s *Shares) Start() {
	s.startOnce.Do(func() {
		go func() {
			for range time.Tick(time.Minute) {
				s.rebuild()
			}
		}()
	})
}

func (s *Shares) changed(config map[string]int) bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.byName == nil || !reflect.DeepEqual(config, s.config)
}

func (s *Shares) rebuild() {
	config := s.load()
	if !s.changed(config) {
		return
	}
	byName := make(map[string]int, len(config))
	for name, n := range config {
		byName[name] = n
	}
	s.mu.Lock() // want `s.mu is locked again for writing after RUnlock`
	s.byName = byName
	s.config = config
	s.mu.Unlock()
}

// Quotas is the same refresher with a second way in: Reload, exported,
// lets any goroutine rebuild beside the ticker.
type Quotas struct {
	load func() map[string]int

	mu     sync.RWMutex
	config map[string]int
	byName map[string]int

	startOnce sync.Once
}

func NewQuotas(load func() map[string]int) *Quotas {
	q := &Quotas{load: load}
	q.rebuild()
	return q
}

func (q *Quotas) Start() {
	q.startOnce.Do(func() {
		go func() {
			for range time.Tick(time.Minute) {
				q.rebuild()
			}
		}()
	})
}

func (q *Quotas) Reload() { q.rebuild() }

func (q *Quotas) changed(config map[string]int) bool {
	q.mu.RLock()
	defer q.mu.RUnlock()
	return q.byName == nil || !reflect.DeepEqual(config, q.config)
}

func (q *Quotas) rebuild() {
	config := q.load()
	if !q.changed(config) {
		return
	}
	byName := make(map[string]int, len(config))
	for name, n := range config {
		byName[name] = n
	}
	q.mu.Lock() // want `q.mu is locked again for writing after RUnlock`
	q.byName = byName
	q.config = config
	q.mu.Unlock()
}

// Tiers starts its ticker without a Once: each Start call adds a
// rebuilder.
type Tiers struct {
	load func() map[string]int

	mu     sync.RWMutex
	config map[string]int
	byName map[string]int
}

func NewTiers(load func() map[string]int) *Tiers {
	t := &Tiers{load: load}
	t.rebuild()
	return t
}

func (t *Tiers) Start() {
	go func() {
		for range time.Tick(time.Minute) {
			t.rebuild()
		}
	}()
}

func (t *Tiers) changed(config map[string]int) bool {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.byName == nil || !reflect.DeepEqual(config, t.config)
}

func (t *Tiers) rebuild() {
	config := t.load()
	if !t.changed(config) {
		return
	}
	byName := make(map[string]int, len(config))
	for name, n := range config {
		byName[name] = n
	}
	t.mu.Lock() // want `t.mu is locked again for writing after RUnlock`
	t.byName = byName
	t.config = config
	t.mu.Unlock()
}

// Rates starts its rebuilder in the constructor before seeding: the seed
// and the first tick may run at once.
type Rates struct {
	load func() map[string]int

	mu     sync.RWMutex
	config map[string]int
	byName map[string]int

	startOnce sync.Once
}

func NewRates(load func() map[string]int) *Rates {
	r := &Rates{load: load}
	r.Start()
	r.rebuild()
	return r
}

func (r *Rates) Start() {
	r.startOnce.Do(func() {
		go func() {
			for range time.Tick(time.Second) {
				r.rebuild()
			}
		}()
	})
}

func (r *Rates) changed(config map[string]int) bool {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.byName == nil || !reflect.DeepEqual(config, r.config)
}

func (r *Rates) rebuild() {
	config := r.load()
	if !r.changed(config) {
		return
	}
	byName := make(map[string]int, len(config))
	for name, n := range config {
		byName[name] = n
	}
	r.mu.Lock() // want `r.mu is locked again for writing after RUnlock`
	r.byName = byName
	r.config = config
	r.mu.Unlock()
}

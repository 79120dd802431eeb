package testharness

import (
	"sync"
	"time"
)

// Rules is code under test whose read-side helpers take the read lock
// themselves, beside variants that expect it held.
type Rules struct {
	mu    sync.RWMutex
	rules []string
}

func (r *Rules) Add(rule string) {
	r.mu.Lock()
	r.rules = append(r.rules, rule)
	r.mu.Unlock()
}

// List takes the read lock itself.
func (r *Rules) List() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return append([]string(nil), r.rules...)
}

// matchLocked expects the read lock held.
func (r *Rules) matchLocked(name string) bool {
	for _, rule := range r.rules {
		if rule == name {
			return true
		}
	}
	return false
}

// NewReloadedRules returns rules that a goroutine of their own refills
// every tick, under the write lock.
func NewReloadedRules(load func() []string) *Rules {
	r := &Rules{}
	go r.reload(load)
	return r
}

func (r *Rules) reload(load func() []string) {
	for range time.Tick(time.Second) {
		rules := load()
		r.mu.Lock()
		r.rules = rules
		r.mu.Unlock()
	}
}

// A Notifier hears of rule changes; the rules call it on a goroutine of
// its own so that a slow one does not hold up the change.
type Notifier interface {
	Changed(n int)
}

// AddNotified adds a rule and tells n about it.
func (r *Rules) AddNotified(rule string, n Notifier) {
	r.Add(rule)
	go n.Changed(len(r.List()))
}

// countingNotifier is a Notifier that only counts.
type countingNotifier struct {
	mu      sync.Mutex
	changes int
}

func (c *countingNotifier) Changed(int) {
	c.mu.Lock()
	c.changes++
	c.mu.Unlock()
}

// An Auditor is told of each rule a set holds, on a goroutine of its own.
type Auditor interface {
	Audit(rules *Rules)
}

// AddAudited adds a rule and has a look at the set.
func (r *Rules) AddAudited(rule string, a Auditor) {
	r.Add(rule)
	go a.Audit(r)
}

// trimmingAuditor is an Auditor that trims the rules it is shown, under
// their write lock.
type trimmingAuditor struct{ max int }

func (t trimmingAuditor) Audit(r *Rules) {
	r.mu.Lock()
	if len(r.rules) > t.max {
		r.rules = r.rules[:t.max]
	}
	r.mu.Unlock()
}

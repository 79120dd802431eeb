// Package dskitservice keeps per-tenant trackers that a dskit timer
// service rebuilds: dskit runs a service's iteration function on the
// service's one goroutine, one call after another, so state only the
// iterations replace or remove cannot change between two of their
// sections. The ingest path only adds a tenant's tracker when it is
// missing, which cannot change one found there.
package dskitservice

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/grafana/dskit/services"
)

type tracker struct {
	labels []string
	limit  int
}

func (t *tracker) sameConfig(labels []string, limit int) bool {
	return len(t.labels) == len(labels) && t.limit == limit
}

type limits interface {
	Labels(tenant string) []string
	Limit(tenant string) int
	Tenants() []string
}

// Manager rebuilds a tenant's tracker when its configuration changed:
// silent.
type Manager struct {
	*services.BasicService
	limits limits

	mu       sync.RWMutex
	trackers map[string]*tracker
}

func NewManager(l limits) *Manager {
	m := &Manager{limits: l, trackers: map[string]*tracker{}}
	m.BasicService = services.NewTimerService(time.Minute, nil, m.iteration, nil)
	return m
}

func (m *Manager) iteration(_ context.Context) error {
	for _, tenant := range m.limits.Tenants() {
		m.refresh(tenant)
	}
	return nil
}

func (m *Manager) refresh(tenant string) {
	m.mu.RLock()
	t := m.trackers[tenant]
	m.mu.RUnlock()
	if t == nil {
		return
	}
	labels, limit := m.limits.Labels(tenant), m.limits.Limit(tenant)
	if t.sameConfig(labels, limit) {
		return
	}
	m.mu.Lock()
	m.trackers[tenant] = &tracker{labels: labels, limit: limit}
	m.mu.Unlock()
}

// Tracker is the ingest path's: it adds a tenant's tracker only when it
// is missing, looking again under the write lock.
func (m *Manager) Tracker(tenant string) *tracker {
	m.mu.RLock()
	t := m.trackers[tenant]
	m.mu.RUnlock()
	if t != nil {
		return t
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if t := m.trackers[tenant]; t != nil {
		return t
	}
	t = &tracker{labels: m.limits.Labels(tenant), limit: m.limits.Limit(tenant)}
	m.trackers[tenant] = t
	return t
}

// LooseManager also lets an admin endpoint reset a tenant's tracker, on
// a request goroutine: the iteration's check may be stale: reported.
type LooseManager struct {
	*services.BasicService
	limits limits

	mu       sync.RWMutex
	trackers map[string]*tracker
}

func NewLooseManager(l limits) *LooseManager {
	m := &LooseManager{limits: l, trackers: map[string]*tracker{}}
	m.BasicService = services.NewTimerService(time.Minute, nil, m.iteration, nil)
	return m
}

func (m *LooseManager) iteration(_ context.Context) error {
	for _, tenant := range m.limits.Tenants() {
		m.refresh(tenant)
	}
	return nil
}

func (m *LooseManager) refresh(tenant string) {
	m.mu.RLock()
	t := m.trackers[tenant]
	m.mu.RUnlock()
	if t == nil {
		return
	}
	labels, limit := m.limits.Labels(tenant), m.limits.Limit(tenant)
	if t.sameConfig(labels, limit) {
		return
	}
	m.mu.Lock() // want `m.mu is locked again for writing after RUnlock: the write is decided by t`
	m.trackers[tenant] = &tracker{labels: labels, limit: limit}
	m.mu.Unlock()
}

// Reset replaces the tenant's tracker with an empty one.
func (m *LooseManager) Reset(tenant string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.trackers[tenant] = &tracker{}
}

// Series forgets series not seen for a while, in a timer service's
// iterations; pushes refresh a series' last-seen time atomically under
// the read lock, so one listed as idle may be fresh by the time it is
// removed: reported.
type Series struct {
	*services.BasicService

	mu     sync.RWMutex
	series map[string]*series
}

type series struct {
	lastSeen atomic.Int64
}

func NewSeries() *Series {
	s := &Series{series: map[string]*series{}}
	s.BasicService = services.NewTimerService(time.Minute, nil, s.forgetIdle, nil)
	return s
}

func (s *Series) forgetIdle(_ context.Context) error {
	cutoff := time.Now().Add(-time.Hour).Unix()
	var idle []string
	s.mu.RLock()
	for k, e := range s.series {
		if e.lastSeen.Load() < cutoff {
			idle = append(idle, k)
		}
	}
	s.mu.RUnlock()
	s.mu.Lock() // want `s.mu is locked again for writing after RUnlock: the loop goes through entries of s.series listed under the read lock`
	for _, k := range idle {
		delete(s.series, k)
	}
	s.mu.Unlock()
	return nil
}

func (s *Series) Push(key string) {
	s.mu.RLock()
	e := s.series[key]
	if e != nil {
		e.lastSeen.Store(time.Now().Unix())
	}
	s.mu.RUnlock()
	if e != nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.series[key] == nil {
		e = &series{}
		e.lastSeen.Store(time.Now().Unix())
		s.series[key] = e
	}
}

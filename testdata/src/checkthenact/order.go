package checkthenact

import (
	"errors"
	"sync"
)

type mirror interface {
	fetch(name string) ([]byte, error)
}

// Mirrors tries every mirror, the ones that failed before last: the
// stale failure marks only choose the order, and every mirror is tried,
// so what each attempt records is this call's own outcome. Silent.
type Mirrors struct {
	mu      sync.Mutex
	mirrors []mirror
	failed  map[int]bool
	streak  int
}

func (m *Mirrors) order() []int {
	m.mu.Lock()
	defer m.mu.Unlock()
	var good, bad []int
	for i := range m.mirrors {
		if m.failed[i] {
			bad = append(bad, i)
		} else {
			good = append(good, i)
		}
	}
	return append(good, bad...)
}

func (m *Mirrors) record(i int, ok bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if ok {
		delete(m.failed, i)
		m.streak = 0
		return
	}
	m.failed[i] = true
}

func (m *Mirrors) Fetch(name string) ([]byte, error) {
	for _, i := range m.order() {
		b, err := m.mirrors[i].fetch(name)
		m.record(i, err == nil)
		if err == nil {
			return b, nil
		}
	}
	return nil, errors.New("every mirror failed")
}

// Healthy tries only the mirrors that had not failed when it looked: one
// that failed and recovered in between is skipped, and the failure it
// records for the others rests on that stale listing.
type Healthy struct {
	mu      sync.Mutex
	mirrors []mirror
	failed  map[int]bool
}

func (h *Healthy) healthy() []int {
	h.mu.Lock()
	defer h.mu.Unlock()
	var good []int
	for i := range h.mirrors {
		if !h.failed[i] {
			good = append(good, i)
		}
	}
	return good
}

func (h *Healthy) markFailed(i int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.failed[i] = true
}

func (h *Healthy) Fetch(name string) ([]byte, error) {
	for _, i := range h.healthy() {
		b, err := h.mirrors[i].fetch(name)
		if err == nil {
			return b, nil
		}
		h.markFailed(i) // want `h.mu is locked again by h.markFailed after the section that checked: the write is decided by h.healthy\(\)`
	}
	return nil, errors.New("no healthy mirror")
}

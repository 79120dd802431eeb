package checkthenact

import "sync"

// A meter whose level holds its mutex and calls average, which locks it
// again: the call never returns. average does more than wrap a locked
// variant, so no fix is offered; Audit unlocks first and is fine.

type meter struct {
	mu      sync.Mutex
	buckets map[string]int
}

func (m *meter) average() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.buckets) == 0 {
		return 0
	}
	n := 0
	for _, b := range m.buckets {
		n += b
	}
	return n / len(m.buckets)
}

func (m *meter) Level(name string) int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.buckets[name] - m.average() // want `m.mu is held here and m.average locks it again: sync.Mutex is not reentrant, so the call never returns; call a variant that expects the lock held, or unlock before the call`
}

func (m *meter) Audit(name string) int {
	m.mu.Lock()
	n := m.buckets[name]
	m.mu.Unlock()
	return n - m.average()
}

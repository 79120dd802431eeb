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

// Refresh releases the lock through a sync.Once, which the held-lock
// state does not see, and then calls a helper that locks: its section is
// a second one, and the level it stores derives from the first section's
// read.
func (m *meter) Refresh(name string) {
	var once sync.Once
	m.mu.Lock()
	defer once.Do(m.mu.Unlock)
	old := m.buckets[name]
	once.Do(m.mu.Unlock)
	m.store(name, old+1) // want `m.mu is locked again by m.store after the section that checked: the value written derives from old, read in an earlier section; an update made in between is lost; re-read it in this section`
}

func (m *meter) store(name string, n int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.buckets[name] = n
}

// spread starts with the locking average: any run of it takes m.mu.
func (m *meter) spread(name string) int {
	avg := m.average()
	if avg == 0 {
		return 0
	}
	return m.buckets[name] * 100 / avg
}

func (m *meter) Skewed(name string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.spread(name) > 150 // want `m.mu is held here and m.spread \(through m.average\) locks it again: sync.Mutex is not reentrant, so the call never returns; call a variant that expects the lock held, or unlock before the call`
}

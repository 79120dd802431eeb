package checkthenact

import "sync"

// Meter admits requests against a quota kept as one struct field, read
// as a whole into a local copy.
type Meter struct {
	mu    sync.Mutex
	quota struct{ used, limit int }
}

// Admit tests the copy and charges in a second section: two callers that
// both saw one unit left both get it.
func (m *Meter) Admit() bool {
	m.mu.Lock()
	q := m.quota
	m.mu.Unlock()
	if q.used >= q.limit {
		return false
	}
	m.mu.Lock() // want `m.mu is locked again after the section that checked: the write is decided by q, read in an earlier section, which may be stale`
	m.quota.used++
	m.mu.Unlock()
	return true
}

// AdmitChecked tests the quota again where it charges.
func (m *Meter) AdmitChecked() bool {
	m.mu.Lock()
	q := m.quota
	m.mu.Unlock()
	if q.used >= q.limit {
		return false
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.quota.used >= m.quota.limit {
		return false
	}
	m.quota.used++
	return true
}

// Report logs the copy and resets the count: the copy decides nothing.
func (m *Meter) Report(log func(used, limit int)) {
	m.mu.Lock()
	q := m.quota
	m.mu.Unlock()
	log(q.used, q.limit)
	m.mu.Lock()
	m.quota.used = 0
	m.mu.Unlock()
}

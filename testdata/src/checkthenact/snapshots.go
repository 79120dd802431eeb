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

// Dialer keeps one connection record per address.
type Dialer struct {
	mu    sync.Mutex
	conns map[string]connRecord
}

type connRecord struct {
	conn   *int
	dialed int
}

// Redial copies the record, returns a live connection early, and takes
// the record again into the same variable in the second section before
// testing it: the test there is of the fresh copy. Silent.
func (d *Dialer) Redial(addr string, dial func() *int) *int {
	d.mu.Lock()
	rec := d.conns[addr]
	d.mu.Unlock()
	if rec.conn != nil {
		return rec.conn
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if rec = d.conns[addr]; rec.conn == nil {
		rec = connRecord{conn: dial(), dialed: rec.dialed + 1}
		d.conns[addr] = rec
	}
	return rec.conn
}

// Package monitor samples statistics while it is open. Open tests and
// sets its state in two sections of m.mu: known false in its program,
// where Open and Close are called once each, in order, by the server
// that owns the monitor (the order of a lifecycle, kept in another
// package).
package monitor

import "sync"

type Monitor struct {
	mu   sync.Mutex
	done chan struct{}
}

func (m *Monitor) isOpen() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.done != nil
}

func (m *Monitor) Open() {
	if m.isOpen() {
		return
	}
	m.mu.Lock() // want `m.mu is locked again after the section that checked: the write is decided by m.isOpen\(\)`
	m.done = make(chan struct{})
	m.mu.Unlock()
}

func (m *Monitor) Close() {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.done != nil {
		close(m.done)
		m.done = nil
	}
}

package helpers

import "sync"

// A connection table whose capacity is asked under the read lock and
// filled under the write lock, each in its own method: two dialers can
// both see the last free slot.

type connTable struct {
	mu    sync.RWMutex
	conns map[string]int
	limit int
}

func (t *connTable) atCapacity() bool {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return len(t.conns) >= t.limit
}

func (t *connTable) add(addr string, fd int) {
	t.mu.Lock()
	t.conns[addr] = fd
	t.mu.Unlock()
}

// tryAdd checks the capacity again under the write lock.
func (t *connTable) tryAdd(addr string, fd int) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.conns) >= t.limit {
		return false
	}
	t.conns[addr] = fd
	return true
}

func (t *connTable) remove(addr string) {
	t.mu.Lock()
	delete(t.conns, addr)
	t.mu.Unlock()
}

// Reported.
func Dial(t *connTable, addr string, fd int) bool {
	if t.atCapacity() {
		return false
	}
	t.add(addr, fd) // want `t.mu is locked again for writing by t.add after RUnlock`
	return true
}

// Silent: tryAdd decides again.
func DialChecked(t *connTable, addr string, fd int) bool {
	if t.atCapacity() {
		return false
	}
	return t.tryAdd(addr, fd)
}

// Reported: two shedders that both saw the table full close two
// connections to make room for one.
func Shed(t *connTable, victim string) {
	if !t.atCapacity() {
		return
	}
	t.remove(victim) // want `t.mu is locked again for writing by t.remove after RUnlock: the write is decided by t.atCapacity\(\)`
}

// Silent: the count is only reported.
func Usage(t *connTable, report func(full bool)) {
	report(t.atCapacity())
	t.remove("")
}

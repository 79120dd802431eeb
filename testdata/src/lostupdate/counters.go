// Package lostupdate holds read-modify-write sequences split across a read
// and a write section.
package lostupdate

import "sync"

type Stats struct {
	mu     sync.RWMutex
	counts map[string]int
	events []string
	total  int
	peak   int
}

// Inc reads the count under the read lock and writes count+1 under the
// write lock: a concurrent Inc in between is lost.
func (s *Stats) Inc(k string) {
	s.mu.RLock()
	n := s.counts[k]
	s.mu.RUnlock()
	n++
	s.mu.Lock() // want `s.mu is locked again for writing after RUnlock: the value written derives from n, read under the read lock; an update made in between is lost`
	s.counts[k] = n
	s.mu.Unlock()
}

// Record appends to a slice read under the read lock and stores it back:
// another Record's event is overwritten.
func (s *Stats) Record(ev string) {
	s.mu.RLock()
	events := s.events
	s.mu.RUnlock()
	events = append(events, ev)
	s.mu.Lock() // want `s.mu is locked again for writing after RUnlock: the value written derives from events`
	s.events = events
	s.mu.Unlock()
}

// IncRight does it in one section.
func (s *Stats) IncRight(k string) {
	s.mu.Lock()
	s.counts[k]++
	s.mu.Unlock()
}

// Reset writes blindly: the read value only feeds the return.
func (s *Stats) Reset() int {
	s.mu.RLock()
	old := s.total
	s.mu.RUnlock()
	s.mu.Lock()
	s.total = 0
	s.mu.Unlock()
	return old
}

// Observe re-validates: the peak is re-tested under the write lock.
func (s *Stats) Observe(v int) {
	s.mu.RLock()
	peak := s.peak
	s.mu.RUnlock()
	if v <= peak {
		return
	}
	s.mu.Lock()
	if v > s.peak {
		s.peak = v
	}
	s.mu.Unlock()
}

// Versioned re-validates by version: the write happens only if nothing
// changed since the read.
type Versioned struct {
	mu      sync.RWMutex
	version uint64
	data    []byte
}

func (v *Versioned) Update(f func([]byte) []byte) bool {
	v.mu.RLock()
	ver, data := v.version, v.data
	v.mu.RUnlock()
	next := f(data)
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.version != ver {
		return false
	}
	v.data = next
	v.version++
	return true
}

// Copy reads under one lock and writes under another: not an upgrade.
func Copy(dst, src *Stats) {
	src.mu.RLock()
	n := src.total
	src.mu.RUnlock()
	dst.mu.Lock()
	dst.total = n
	dst.mu.Unlock()
}

// Either reads or writes, never both: mutually exclusive paths.
func (s *Stats) Either(write bool, k string) int {
	if !write {
		s.mu.RLock()
		defer s.mu.RUnlock()
		return s.counts[k]
	}
	s.mu.Lock()
	s.counts[k] = 0
	s.mu.Unlock()
	return 0
}

// Ledger holds its own lock over both sections of an account's lock: the
// gap is serialised by the outer lock. Silent.
type Account struct {
	mu      sync.RWMutex
	balance int
}

type Ledger struct {
	mu       sync.Mutex
	accounts []*Account
}

func (a *Account) Balance() int {
	a.mu.RLock()
	defer a.mu.RUnlock()
	return a.balance
}

func (a *Account) set(v int) {
	a.mu.Lock()
	a.balance = v
	a.mu.Unlock()
}

func (l *Ledger) Interest(rate int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, a := range l.accounts {
		b := a.Balance()
		a.set(b + b*rate/100)
	}
}

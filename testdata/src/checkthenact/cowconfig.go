package checkthenact

import "sync"

// Limits kept as an immutable table behind a plain mutex: readers take
// the current table under the lock and read it unlocked; a change copies
// the table and swaps the copy in.
type limitTable struct {
	epoch  uint64
	limits map[string]int
}

type Limiter struct {
	mu    sync.Mutex
	table *limitTable
}

func (l *Limiter) current() *limitTable {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.table
}

func (l *Limiter) Limit(name string) int { return l.current().limits[name] }

func copyWith(t *limitTable, name string, n int) *limitTable {
	next := &limitTable{epoch: t.epoch + 1, limits: make(map[string]int, len(t.limits)+1)}
	for k, v := range t.limits {
		next.limits[k] = v
	}
	next.limits[name] = n
	return next
}

// SetLimit copies the table outside the lock and swaps the copy in: a
// limit set by another caller in between is lost.
func (l *Limiter) SetLimit(name string, n int) {
	cur := l.current()
	next := &limitTable{epoch: cur.epoch + 1, limits: make(map[string]int, len(cur.limits)+1)}
	for k, v := range cur.limits {
		next.limits[k] = v
	}
	next.limits[name] = n
	l.mu.Lock() // want `l.mu is locked again after the section that checked: the value written is a copy built from cur, read in an earlier section; what another goroutine stored in l.table in between is lost; build the copy in this section`
	l.table = next
	l.mu.Unlock()
}

// SetLimitSwap swaps the copy in only if the table is still the one it
// copied, and starts over otherwise. Silent.
func (l *Limiter) SetLimitSwap(name string, n int) {
	for {
		cur := l.current()
		next := copyWith(cur, name, n)
		l.mu.Lock()
		if l.table == cur {
			l.table = next
			l.mu.Unlock()
			return
		}
		l.mu.Unlock()
	}
}

// SetLimitEpoch compares epochs instead, and gives up on a change. Silent.
func (l *Limiter) SetLimitEpoch(name string, n int) bool {
	cur := l.current()
	next := copyWith(cur, name, n)
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.table.epoch != cur.epoch {
		return false
	}
	l.table = next
	return true
}

// SetLimitLocked copies under the lock that swaps. Silent.
func (l *Limiter) SetLimitLocked(name string, n int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.table = copyWith(l.table, name, n)
}

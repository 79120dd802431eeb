package lockkinds

import "sync"

// A table whose lock is handed out by an accessor: the sections taken
// through it are sections of t.mu like any other.

type table struct {
	mu   sync.RWMutex
	rows map[string]int
}

func (t *table) rw() *sync.RWMutex { return &t.mu }

// bump reads under the read lock and writes under the write lock, both
// taken through the accessor: an increment made in between is lost.
func (t *table) bump(k string) {
	t.rw().RLock()
	n := t.rows[k]
	t.rw().RUnlock()
	t.rw().Lock() // want `t.rw\(\) is locked again for writing after RUnlock: the value written derives from n`
	t.rows[k] = n + 1
	t.rw().Unlock()
}

// bumpHeld holds the write lock throughout (silent).
func (t *table) bumpHeld(k string) {
	l := t.rw()
	l.Lock()
	defer l.Unlock()
	t.rows[k]++
}

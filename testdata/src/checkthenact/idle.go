package checkthenact

import (
	"strings"
	"sync"
)

type lease struct{ holders int }

// Leases hands out shared leases by name; an unheld lease is dropped by a
// sweep.
type Leases struct {
	mu     sync.Mutex
	byName map[string]*lease
}

func (l *Leases) Hold(name string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	e, ok := l.byName[name]
	if !ok {
		e = &lease{}
		l.byName[name] = e
	}
	e.holders++
}

// Sweep lists the unheld leases in one section and drops them in the
// next: a Hold in between is dropped with its lease.
func (l *Leases) Sweep() {
	l.mu.Lock()
	var unheld []string
	for name, e := range l.byName {
		if e.holders == 0 {
			unheld = append(unheld, name)
		}
	}
	l.mu.Unlock()
	for _, name := range unheld {
		l.mu.Lock() // want `l.mu is locked again after the section that checked: the loop goes through entries of l.byName listed in an earlier section because a test of their state let them through`
		delete(l.byName, name)
		l.mu.Unlock()
	}
}

// SweepChecked tests each lease again before dropping it. Silent.
func (l *Leases) SweepChecked() {
	l.mu.Lock()
	var unheld []string
	for name, e := range l.byName {
		if e.holders == 0 {
			unheld = append(unheld, name)
		}
	}
	l.mu.Unlock()
	for _, name := range unheld {
		l.mu.Lock()
		if e, ok := l.byName[name]; ok && e.holders == 0 {
			delete(l.byName, name)
		}
		l.mu.Unlock()
	}
}

// DropPrefix drops the leases a test of their names alone picked: a
// name still says the same thing later. Silent.
func (l *Leases) DropPrefix(prefix string) {
	l.mu.Lock()
	var picked []string
	for name := range l.byName {
		if strings.HasPrefix(name, prefix) {
			picked = append(picked, name)
		}
	}
	l.mu.Unlock()
	for _, name := range picked {
		l.mu.Lock()
		delete(l.byName, name)
		l.mu.Unlock()
	}
}

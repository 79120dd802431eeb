// Package keyedlocker hands out one lock per name, as moby's locker
// package does: Lock(name) waits only for holders of the same name.
package keyedlocker

import "sync"

type Locker struct {
	mu    sync.Mutex
	locks map[string]*sync.Mutex
}

func New() *Locker { return &Locker{locks: make(map[string]*sync.Mutex)} }

func (l *Locker) Lock(name string) {
	l.mu.Lock()
	m, ok := l.locks[name]
	if !ok {
		m = new(sync.Mutex)
		l.locks[name] = m
	}
	l.mu.Unlock()
	m.Lock()
}

func (l *Locker) Unlock(name string) error {
	l.mu.Lock()
	m, ok := l.locks[name]
	l.mu.Unlock()
	if !ok {
		return nil
	}
	m.Unlock()
	return nil
}

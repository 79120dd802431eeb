package mutexmapplain

import (
	"sync"
	"sync/atomic"
)

// NameLocker counts the goroutines waiting for each name's lock, raising
// the count under the map's lock before blocking; Unlock removes the entry
// under the map's lock only when nobody is waiting. The entry's Lock and
// Unlock methods stand for its mutex.
type NameLocker struct {
	mu    sync.Mutex
	names map[string]*nameLock
}

type nameLock struct {
	mu      sync.Mutex
	waiting atomic.Int32
}

func (n *nameLock) Lock()          { n.mu.Lock() }
func (n *nameLock) Unlock()        { n.mu.Unlock() }
func (n *nameLock) waiters() int32 { return n.waiting.Load() }

func (l *NameLocker) Lock(name string) {
	l.mu.Lock()
	nl, ok := l.names[name]
	if !ok {
		nl = &nameLock{}
		l.names[name] = nl
	}
	nl.waiting.Add(1)
	l.mu.Unlock()
	nl.Lock()
	nl.waiting.Add(-1)
}

func (l *NameLocker) Unlock(name string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	nl, ok := l.names[name]
	if !ok {
		return false
	}
	if nl.waiters() == 0 {
		delete(l.names, name)
	}
	nl.Unlock()
	return true
}

// Forget drops a name whether or not anyone waits on it: the same entry
// type, without the count.
func (l *NameLocker) Forget(name string) {
	l.mu.Lock()
	delete(l.names, name) // want `per-key mutex removed from l.names by delete`
	l.mu.Unlock()
}

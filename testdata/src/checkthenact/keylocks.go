package checkthenact

import "sync"

// KeyLocks hands out one mutex per key, dropping a key's entry when its
// last user lets go: each entry counts the callers holding or waiting for
// it, and an entry is removed only when its count is back to zero.
type KeyLocks struct {
	mu   sync.Mutex
	keys map[string]*keyLock
}

type keyLock struct {
	mu    sync.Mutex
	users int
}

func (l *KeyLocks) Lock(key string) {
	l.mu.Lock()
	e, ok := l.keys[key]
	if !ok {
		e = new(keyLock)
		l.keys[key] = e
	}
	e.users++
	l.mu.Unlock()
	e.mu.Lock()
}

// Unlock finds the entry, releases it, then gives back its own count and
// drops the entry if no one else counts on it: the caller's count pins
// the entry until then, so it cannot have been removed or replaced.
// Silent.
func (l *KeyLocks) Unlock(key string) {
	l.mu.Lock()
	e, ok := l.keys[key]
	l.mu.Unlock()
	if !ok {
		return
	}
	e.mu.Unlock()

	l.mu.Lock()
	e.users--
	if e.users <= 0 {
		delete(l.keys, key)
	}
	l.mu.Unlock()
}

// Adopt adds users counted elsewhere to an entry found earlier: that
// entry may have been dropped in between, and the count is lost with it.
func (l *KeyLocks) Adopt(key string, users int) {
	l.mu.Lock()
	e, ok := l.keys[key]
	l.mu.Unlock()
	if !ok {
		return
	}

	l.mu.Lock() // want `l.mu is locked again after the section that checked: the write goes through e`
	e.users += users
	l.mu.Unlock()
}

package lostupdate

import (
	"sync"
	"time"
)

type lookup struct {
	answer  []byte
	expires time.Time
	hits    int
}

func resolve(name string) []byte { return []byte(name) }

// answers caches what a resolver said, until it expires.
type answers struct {
	mu    sync.RWMutex
	cache map[string]lookup
}

// Resolve copies the cached lookup out, and on a miss assigns every
// field of the copy again before storing it: nothing of what the read
// lock saw is written back, and a racer's answer is replaced by an
// equally fresh one. Silent.
func (a *answers) Resolve(name string) []byte {
	a.mu.RLock()
	l, ok := a.cache[name]
	a.mu.RUnlock()
	if ok && l.expires.After(time.Now()) {
		return l.answer
	}
	answer := resolve(name)
	a.mu.Lock()
	defer a.mu.Unlock()
	l.answer = answer
	l.expires = time.Now().Add(time.Minute)
	l.hits = 0
	a.cache[name] = l
	return answer
}

// Refresh keeps the hit count of the copy: hits counted in between are
// lost.
func (a *answers) Refresh(name string) []byte {
	a.mu.RLock()
	l, ok := a.cache[name]
	a.mu.RUnlock()
	if ok && l.expires.After(time.Now()) {
		return l.answer
	}
	answer := resolve(name)
	a.mu.Lock() // want `a.mu is locked again for writing after RUnlock: the value written derives from l`
	defer a.mu.Unlock()
	l.answer = answer
	l.expires = time.Now().Add(time.Minute)
	a.cache[name] = l
	return answer
}

func (a *answers) Hit(name string) {
	a.mu.Lock()
	l := a.cache[name]
	l.hits++
	a.cache[name] = l
	a.mu.Unlock()
}

// Package listeners keeps a broker's network listeners. AddListener
// looks the ID up under the read lock and adds the listener under the
// write lock: known false in its program, where AddListener is a
// configuration call that the program's main goroutine makes one after
// another before it starts serving, and nothing adds listeners later
// (set-up order). It is exported, so as far as this package can tell
// anyone may call it at any time.
package listeners

import (
	"errors"
	"sync"
)

type Listener interface {
	ID() string
	Serve() error
}

type Listeners struct {
	mu       sync.RWMutex
	internal map[string]Listener
}

func New() *Listeners { return &Listeners{internal: make(map[string]Listener)} }

func (l *Listeners) Get(id string) (Listener, bool) {
	l.mu.RLock()
	defer l.mu.RUnlock()
	v, ok := l.internal[id]
	return v, ok
}

func (l *Listeners) add(v Listener) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.internal[v.ID()] = v
}

// AddListener adds a listener before the broker serves.
func (l *Listeners) AddListener(v Listener) error {
	if _, ok := l.Get(v.ID()); ok {
		return errors.New("listener id already exists")
	}
	l.add(v) // want `l.mu is locked again for writing by l.add after RUnlock: l.Get\(v.ID\(\)\) was missing under the read lock`
	return nil
}

// ServeAll serves every listener added.
func (l *Listeners) ServeAll() {
	l.mu.RLock()
	defer l.mu.RUnlock()
	for _, v := range l.internal {
		go v.Serve()
	}
}

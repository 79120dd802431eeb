package mutexmapsafe

import (
	"sync"
	"time"
)

// Accounts keeps one record per user. A record's own lock guards only its
// last-seen time and is taken only while the table's read lock is held;
// adding and removing hold the table's write lock. No one holds or waits
// on a record's lock while it is removed or replaced: silent.
type account struct {
	sync.RWMutex
	name     string
	lastSeen time.Time
}

type Accounts struct {
	mu   *sync.RWMutex // shared with the table's snapshots
	byID map[string]*account
}

func (a *Accounts) Add(id, name string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.byID[id] = &account{name: name}
}

func (a *Accounts) Remove(id string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	delete(a.byID, id)
}

func (a *Accounts) Touch(seen map[string]time.Time) {
	a.mu.RLock()
	defer a.mu.RUnlock()
	for id, t := range seen {
		if a.byID[id].lastSeen.Before(t) {
			a.byID[id].Lock()
			a.byID[id].lastSeen = t
			a.byID[id].Unlock()
		}
	}
}

// Seen records a visit if no one else is recording one: TryLock, also
// under the table's read lock.
func (a *Accounts) Seen(id string) bool {
	a.mu.RLock()
	defer a.mu.RUnlock()
	acc := a.byID[id]
	if acc == nil {
		return false
	}
	if a.byID[id].TryLock() {
		a.byID[id].lastSeen = time.Now()
		a.byID[id].Unlock()
	}
	return true
}

// Sessions keeps records the same way, but expiring one holds only the
// janitor's own lock: a visit may hold the record's lock while it goes.
type Sessions struct {
	mu      *sync.RWMutex
	janitor sync.Mutex
	byID    map[string]*account
}

func (s *Sessions) Open(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.byID[id] = &account{}
}

func (s *Sessions) Visit(id string) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	s.byID[id].Lock()
	s.byID[id].lastSeen = time.Now()
	s.byID[id].Unlock()
}

func (s *Sessions) Expire(id string) {
	s.janitor.Lock()
	defer s.janitor.Unlock()
	delete(s.byID, id) // want `per-key mutex removed from s.byID by delete while another goroutine may hold or wait on it`
}

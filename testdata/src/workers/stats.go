// Package workers holds state owned by one worker goroutine: it alone
// writes, the lock only publishes to readers, so what it read in one
// section is still true in the next. Also the shapes where that is not so.
package workers

import (
	"sync"
	"time"
)

type Usage struct {
	Key   string
	Bytes int64
	Seen  int64
}

// Store is a small self-locking table, like the ones a package keeps for
// its readers.
type Store struct {
	mu    sync.RWMutex
	usage map[string]Usage
}

func NewStore() *Store { return &Store{usage: map[string]Usage{}} }

func (s *Store) Get(key string) (Usage, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	u, ok := s.usage[key]
	return u, ok
}

func (s *Store) Add(u Usage) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.usage[u.Key] = u
}

func (s *Store) Delete(key string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.usage, key)
}

func (s *Store) List() []Usage {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]Usage, 0, len(s.usage))
	for _, u := range s.usage {
		out = append(out, u)
	}
	return out
}

// syncer refreshes the table from the disk on its own goroutine, the only
// one that writes it: silent.
type syncer struct {
	store  *Store
	period time.Duration
	scan   func() map[string]int64
}

func (s *syncer) start() {
	go func() {
		for {
			s.sync()
			time.Sleep(s.period)
		}
	}()
}

func (s *syncer) sync() {
	now := time.Now().UnixNano()
	for key, bytes := range s.scan() {
		u, ok := s.store.Get(key)
		if ok && u.Bytes == bytes {
			u.Seen = now
			s.store.Add(u)
			continue
		}
		s.store.Add(Usage{Key: key, Bytes: bytes, Seen: now})
	}
	for _, u := range s.store.List() {
		if u.Seen < now {
			s.store.Delete(u.Key)
		}
	}
}

// Service publishes the table; its methods only read it.
type Service struct {
	usage *Store
}

func NewService(scan func() map[string]int64) *Service {
	svc := &Service{usage: NewStore()}
	(&syncer{store: svc.usage, period: time.Second, scan: scan}).start()
	return svc
}

func (svc *Service) Usage(key string) int64 {
	u, _ := svc.usage.Get(key)
	return u.Bytes
}

// Package workers holds state owned by one worker goroutine: it alone
// writes, the lock only publishes to readers, so what it read in one
// section is still true in the next. Also the shapes where that is not so.
// (Writers in other packages are not seen; the table here is another
// package's, reachable only through this package's unexported fields.)
package workers

import (
	"time"

	"workers/usage"
)

// syncer refreshes the table from the disk on its own goroutine, the only
// one that writes it: silent.
type syncer struct {
	store  *usage.Store
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
		s.store.Add(usage.Usage{Key: key, Bytes: bytes, Seen: now})
	}
	for _, u := range s.store.List() {
		if u.Seen < now {
			s.store.Delete(u.Key)
		}
	}
}

// Service publishes the table; its methods only read it.
type Service struct {
	usage *usage.Store
}

func NewService(scan func() map[string]int64) *Service {
	svc := &Service{usage: usage.NewStore()}
	(&syncer{store: svc.usage, period: time.Second, scan: scan}).start()
	return svc
}

func (svc *Service) Usage(key string) int64 {
	u, _ := svc.usage.Get(key)
	return u.Bytes
}

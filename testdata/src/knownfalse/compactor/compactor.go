// Package compactor rewrites segment files one at a time. Rewrite checks
// that its segment is not already queued for removal under the read
// lock, copies the live entries, then queues or drops the segment under
// the write lock. Known false in its program: every production rewrite
// runs inside Collect, which admits one collector at a time through a
// channel of capacity one filled with a select that gives up by default,
// so no other rewrite can queue the segment in the gap; the only other
// writer, release, empties the queue, which cannot make "not queued"
// stale (an outer lock held by all callers, other writers only remove).
package compactor

import (
	"errors"
	"sync"
)

var errBusy = errors.New("collection already running")

type segment struct{ id uint32 }

type Log struct {
	mu        sync.RWMutex
	segments  map[uint32]*segment
	doomed    []uint32
	readers   int
	collector chan struct{}
}

func New() *Log {
	return &Log{segments: map[uint32]*segment{}, collector: make(chan struct{}, 1)}
}

func (l *Log) Collect(pick func() *segment) error {
	select {
	case l.collector <- struct{}{}:
		defer func() { <-l.collector }()
		return l.rewrite(pick())
	default:
		return errBusy
	}
}

func (l *Log) rewrite(s *segment) error {
	l.mu.RLock()
	for _, id := range l.doomed {
		if id == s.id {
			l.mu.RUnlock()
			return errors.New("segment already queued for removal")
		}
	}
	l.mu.RUnlock()

	copyLive(s)

	l.mu.Lock() // want `l.mu is locked again for writing after RUnlock: the write is decided by l.doomed\[...\]`
	if l.readers == 0 {
		delete(l.segments, s.id)
	} else {
		l.doomed = append(l.doomed, s.id)
	}
	l.mu.Unlock()
	return nil
}

func copyLive(*segment) {}

// release drops the queued segments once the last reader is gone.
func (l *Log) release() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.readers--
	if l.readers > 0 {
		return
	}
	for _, id := range l.doomed {
		delete(l.segments, id)
	}
	l.doomed = nil
}

func (l *Log) Read(id uint32) *segment {
	l.mu.Lock()
	l.readers++
	s := l.segments[id]
	l.mu.Unlock()
	defer l.release()
	return s
}

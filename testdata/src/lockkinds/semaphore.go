package lockkinds

import (
	"errors"
	"slices"
	"sync"
)

var errBusy = errors.New("a compaction is already running")

// Segments is a log of segment files. A compaction rewrites one segment
// and then retires it: deleted at once when no reader holds it open,
// queued for deletion otherwise. One compaction runs at a time: Compact
// takes the running channel (capacity one) or gives up.
type Segments struct {
	running chan struct{}

	mu      sync.RWMutex
	files   map[int]bool
	retired []int
	readers int
}

func NewSegments() *Segments {
	return &Segments{running: make(chan struct{}, 1), files: make(map[int]bool)}
}

func (s *Segments) Compact(id int) error {
	select {
	case s.running <- struct{}{}:
		defer func() { <-s.running }()
		return s.rewrite(id)
	default:
		return errBusy
	}
}

// rewrite tests whether the segment is already queued under the read
// lock and queues it under the write lock. Its only caller holds the
// running semaphore, so no other rewrite can queue the segment in
// between. Silent.
func (s *Segments) rewrite(id int) error {
	s.mu.RLock()
	queued := slices.Contains(s.retired, id)
	s.mu.RUnlock()
	if queued {
		return nil
	}
	s.mu.Lock()
	if s.readers == 0 {
		delete(s.files, id)
	} else {
		s.retired = append(s.retired, id)
	}
	s.mu.Unlock()
	return nil
}

// Close waits for a running compaction and keeps any other from
// starting: it takes the semaphore for good.
func (s *Segments) Close() {
	s.running <- struct{}{}
}

// Pool lets up to four compactions run at once: its channel counts
// slots, it is no lock, and two of them may both find the segment not
// yet queued.
type Pool struct {
	slots chan struct{}

	mu      sync.RWMutex
	retired []int
	readers int
}

func NewPool() *Pool {
	return &Pool{slots: make(chan struct{}, 4)}
}

func (p *Pool) Compact(id int) {
	p.slots <- struct{}{}
	defer func() { <-p.slots }()
	p.retire(id)
}

func (p *Pool) retire(id int) {
	p.mu.RLock()
	queued := slices.Contains(p.retired, id)
	p.mu.RUnlock()
	if queued {
		return
	}
	p.mu.Lock() // want `p.mu is locked again for writing after RUnlock: the write is decided by queued`
	p.retired = append(p.retired, id)
	p.mu.Unlock()
}

// Kicker's wake channel has room for one signal: Kick fills it without
// waiting and the loop drains it elsewhere. A kick is no lock; two
// kickers may both find the segment not yet queued.
type Kicker struct {
	wake chan struct{}

	mu      sync.RWMutex
	retired []int
}

func NewKicker() *Kicker {
	return &Kicker{wake: make(chan struct{}, 1)}
}

func (k *Kicker) Kick(id int) {
	select {
	case k.wake <- struct{}{}:
		k.queue(id)
	default:
	}
}

func (k *Kicker) queue(id int) {
	k.mu.RLock()
	queued := slices.Contains(k.retired, id)
	k.mu.RUnlock()
	if queued {
		return
	}
	k.mu.Lock() // want `k.mu is locked again for writing after RUnlock: the write is decided by queued`
	k.retired = append(k.retired, id)
	k.mu.Unlock()
}

func (k *Kicker) loop(done chan struct{}) {
	for {
		select {
		case <-k.wake:
		case <-done:
			return
		}
	}
}

// Log is Segments with the search written out and a reader's release
// that empties the queue once no reader is left. Emptying the queue
// cannot put the segment into it: "not queued" still holds. Silent.
type Log struct {
	collector chan struct{}

	mu      sync.RWMutex
	files   map[int]bool
	doomed  []int
	readers int
}

func NewLog() *Log {
	return &Log{collector: make(chan struct{}, 1), files: make(map[int]bool)}
}

func (l *Log) Collect(id int) error {
	select {
	case l.collector <- struct{}{}:
		defer func() { <-l.collector }()
		return l.rewrite(id)
	default:
		return errBusy
	}
}

func (l *Log) rewrite(id int) error {
	l.mu.RLock()
	for _, d := range l.doomed {
		if d == id {
			l.mu.RUnlock()
			return errors.New("already queued")
		}
	}
	l.mu.RUnlock()
	l.mu.Lock()
	if l.readers == 0 {
		delete(l.files, id)
	} else {
		l.doomed = append(l.doomed, id)
	}
	l.mu.Unlock()
	return nil
}

func (l *Log) Release() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.readers--; l.readers > 0 {
		return
	}
	for _, id := range l.doomed {
		delete(l.files, id)
	}
	l.doomed = nil
}

// QuarantineLog also queues segments from Quarantine, which takes no
// semaphore: it may queue the segment a collection found not queued.
type QuarantineLog struct {
	collector chan struct{}

	mu      sync.RWMutex
	files   map[int]bool
	doomed  []int
	readers int
}

func NewQuarantineLog() *QuarantineLog {
	return &QuarantineLog{collector: make(chan struct{}, 1), files: make(map[int]bool)}
}

func (l *QuarantineLog) Collect(id int) error {
	select {
	case l.collector <- struct{}{}:
		defer func() { <-l.collector }()
		return l.rewrite(id)
	default:
		return errBusy
	}
}

func (l *QuarantineLog) rewrite(id int) error {
	l.mu.RLock()
	for _, d := range l.doomed {
		if d == id {
			l.mu.RUnlock()
			return errors.New("already queued")
		}
	}
	l.mu.RUnlock()
	l.mu.Lock() // want `l.mu is locked again for writing after RUnlock: the write is decided by l.doomed\[...\]`
	if l.readers == 0 {
		delete(l.files, id)
	} else {
		l.doomed = append(l.doomed, id)
	}
	l.mu.Unlock()
	return nil
}

func (l *QuarantineLog) Quarantine(id int) {
	l.mu.Lock()
	l.doomed = append(l.doomed, id)
	l.mu.Unlock()
}

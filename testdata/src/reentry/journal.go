package reentry

import "sync"

// A journal's segment index keeps a read-write lock of its own, and
// heads holds the read lock while segment takes it again. A writer could
// hang both only by locking in between, and the index's one writer,
// append, runs only under the journal's lock, which every reader of the
// index holds too: no Lock can come between the two RLocks.

type segIndex struct {
	mu   sync.RWMutex
	segs map[int]string
	last int
}

func (x *segIndex) segment(n int) string {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return x.segs[n]
}

func (x *segIndex) heads() []string {
	x.mu.RLock()
	defer x.mu.RUnlock()
	var out []string
	for n := range x.segs {
		out = append(out, x.segment(n))
	}
	return out
}

func (x *segIndex) append(s string) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.last++
	x.segs[x.last] = s
}

type journal struct {
	mu    sync.Mutex
	index *segIndex
}

func (j *journal) Write(s string) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.index.append(s)
}

func (j *journal) Heads() []string {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.index.heads()
}

// A log whose Compact trims the index without the log's lock: its Lock
// can come between Heads's two RLocks.

type trimIndex struct {
	mu   sync.RWMutex
	segs map[int]string
}

func (x *trimIndex) segment(n int) string {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return x.segs[n]
}

func (x *trimIndex) heads() []string {
	x.mu.RLock()
	defer x.mu.RUnlock()
	var out []string
	for n := range x.segs {
		out = append(out, x.segment(n)) // want `x.mu is held for reading here and x.segment takes its read lock again`
	}
	return out
}

func (x *trimIndex) trim(below int) {
	x.mu.Lock()
	defer x.mu.Unlock()
	for n := range x.segs {
		if n < below {
			delete(x.segs, n)
		}
	}
}

type trimLog struct {
	mu    sync.Mutex
	index *trimIndex
}

func (l *trimLog) Heads() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.index.heads()
}

// Compact runs on the log's cleaner goroutine, beside readers.
func (l *trimLog) Compact(below int) {
	l.index.trim(below)
}

// A ledger whose writes hold its lock but whose Heads reads the index
// bare: a write under the ledger's lock can still come between Heads's
// two RLocks, since Heads does not hold that lock.

type bareIndex struct {
	mu   sync.RWMutex
	segs map[int]string
}

func (x *bareIndex) segment(n int) string {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return x.segs[n]
}

func (x *bareIndex) heads() []string {
	x.mu.RLock()
	defer x.mu.RUnlock()
	var out []string
	for n := range x.segs {
		out = append(out, x.segment(n)) // want `x.mu is held for reading here and x.segment takes its read lock again`
	}
	return out
}

func (x *bareIndex) put(n int, s string) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.segs[n] = s
}

type bareLedger struct {
	mu    sync.Mutex
	index *bareIndex
}

func (l *bareLedger) Put(n int, s string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.index.put(n, s)
}

func (l *bareLedger) Heads() []string { return l.index.heads() }

package lostupdate

import (
	"sync"
	"time"
)

type fileInfo interface {
	Size() int64
	ModTime() time.Time
}

// loadCounter is a metric with a lock of its own.
type loadCounter struct {
	mu sync.Mutex
	n  map[string]int
}

func (c *loadCounter) inc(name string) {
	c.mu.Lock()
	c.n[name]++
	c.mu.Unlock()
}

// HostsTable is a lookup table loaded from a file and loaded again when the
// file changes.
type HostsTable struct {
	mu      sync.RWMutex
	rows    map[string]string
	size    int64
	mtime   time.Time
	reloads int
	loads   *loadCounter
}

// Reload parses the file again when its size or time differs from what
// was loaded, and stores what it found on disk: had a racer loaded the
// same file in between, it stores the same again. Silent.
func (t *HostsTable) Reload(stat fileInfo, parse func() map[string]string) {
	t.mu.RLock()
	size, mtime := t.size, t.mtime
	t.mu.RUnlock()
	if size == stat.Size() && mtime.Equal(stat.ModTime()) {
		return
	}

	rows := parse()
	t.mu.Lock()
	t.rows = rows
	t.size = stat.Size()
	t.mtime = stat.ModTime()
	t.loads.inc("table")
	t.mu.Unlock()
}

// ReloadCounted counts reloads in the table itself: a racer's reload of
// the same file is counted again.
func (t *HostsTable) ReloadCounted(stat fileInfo, parse func() map[string]string) {
	t.mu.RLock()
	size := t.size
	t.mu.RUnlock()
	if size == stat.Size() {
		return
	}

	rows := parse()
	t.mu.Lock() // want `t.mu is locked again for writing after RUnlock: the write is decided by size`
	t.rows = rows
	t.size = stat.Size()
	t.reloads++
	t.mu.Unlock()
}

// Latencies keeps recent samples and a sorted copy refreshed at most once
// a second.
type Latencies struct {
	mu       sync.RWMutex
	samples  map[int64][]time.Duration
	sorted   []time.Duration
	cachedAt int64
	rebuilds int
}

// Sorted rebuilds the copy when it is older than a second, from the
// samples read under the write lock, and stamps it with the time: a racer
// that rebuilt in between is redone from the same samples. Silent.
func (l *Latencies) Sorted() []time.Duration {
	l.mu.RLock()
	at := l.cachedAt
	l.mu.RUnlock()
	if at+int64(time.Second) > time.Now().UnixNano() {
		return nil
	}

	l.mu.Lock()
	defer l.mu.Unlock()
	var all []time.Duration
	for _, s := range l.samples {
		all = append(all, s...)
	}
	l.sorted = all
	l.cachedAt = time.Now().UnixNano()
	return l.sorted
}

// SortedCounted counts its rebuilds: a racer's rebuild is counted twice.
func (l *Latencies) SortedCounted() {
	l.mu.RLock()
	at := l.cachedAt
	l.mu.RUnlock()
	if at+int64(time.Second) > time.Now().UnixNano() {
		return
	}

	l.mu.Lock() // want `l.mu is locked again for writing after RUnlock: the write is decided by at`
	l.rebuilds++
	l.cachedAt = time.Now().UnixNano()
	l.mu.Unlock()
}

// Throttle lets a warning through at most once per interval.
type Throttle struct {
	mu   sync.RWMutex
	last int64
}

// Allow stamps the time when the interval has passed and says yes: two
// callers that both read the old stamp both log. The stamp alone is not a
// cache rebuilt, the decision is acted on after the section.
func (t *Throttle) Allow(interval int64) bool {
	t.mu.RLock()
	last := t.last
	t.mu.RUnlock()
	if now := time.Now().UnixNano(); now-last >= interval {
		t.mu.Lock() // want `t.mu is locked again for writing after RUnlock: the write is decided by last`
		t.last = now
		t.mu.Unlock()
		return true
	}
	return false
}

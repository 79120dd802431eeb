package workers

import (
	"sync"
	"time"
)

// Counts is a second table type, so that its writers are not the syncer's.
type Counts struct {
	mu sync.RWMutex
	n  map[string]int64
}

func (c *Counts) Get(key string) int64 {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.n[key]
}

func (c *Counts) Set(key string, n int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n[key] = n
}

// counter is refreshed by a worker, but request handlers write the same
// table: the worker's read can go stale.
type counter struct {
	counts *Counts
	scan   func() map[string]int64
}

func (c *counter) start() {
	go func() {
		for {
			c.refresh()
			time.Sleep(time.Second)
		}
	}()
}

func (c *counter) refresh() {
	for key, n := range c.scan() {
		c.counts.Set(key, c.counts.Get(key)+n) // want `c.counts.mu is locked again for writing by c.counts.Set after RUnlock: the value written derives from c.counts.Get\(key\)`
	}
}

// Reset is called by request handlers, on their own goroutines.
func (c *counter) Reset(key string) {
	c.counts.Set(key, 0)
}

func NewCounter(scan func() map[string]int64) *counter {
	c := &counter{counts: &Counts{n: map[string]int64{}}, scan: scan}
	c.start()
	return c
}

// tally starts a goroutine per batch: several run at once on one table.
type tally struct {
	counts *Counts
}

func (t *tally) run(batches <-chan map[string]int64) {
	for b := range batches {
		go t.count(b)
	}
}

func (t *tally) count(b map[string]int64) {
	for key, n := range b {
		t.counts.Set(key, t.counts.Get(key)+n) // want `t.counts.mu is locked again for writing by t.counts.Set after RUnlock: the value written derives from t.counts.Get\(key\)`
	}
}

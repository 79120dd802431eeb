package lockkinds

import "sync"

// A time-series index rebuilds its measurements one rebuild at a time:
// rebuildMu keeps two rebuilds apart, and every call of rebuildOne holds
// it. Whether that closes rebuildOne's gap depends on the other writers
// of the map.

type measurement struct {
	series map[uint64]bool
}

func (m *measurement) compact() *measurement {
	return &measurement{series: m.series}
}

// SeriesIndex drops measurements holding only mu: a drop between
// rebuildOne's sections is undone when the rebuilt copy is stored.
// Reported.
type SeriesIndex struct {
	rebuildMu    sync.Mutex
	mu           sync.RWMutex
	measurements map[string]*measurement
}

func (i *SeriesIndex) Rebuild(names []string) {
	i.rebuildMu.Lock()
	defer i.rebuildMu.Unlock()
	for _, name := range names {
		i.rebuildOne(name)
	}
}

func (i *SeriesIndex) rebuildOne(name string) {
	i.mu.RLock()
	m := i.measurements[name]
	i.mu.RUnlock()
	if m == nil {
		return
	}
	nm := m.compact()
	i.mu.Lock() // want `i.mu is locked again for writing after RUnlock`
	i.measurements[name] = nm
	i.mu.Unlock()
}

func (i *SeriesIndex) Drop(name string) {
	i.mu.Lock()
	delete(i.measurements, name)
	i.mu.Unlock()
}

// QueuedIndex makes its drops wait for rebuildMu as well: every writer
// of the map is kept out of the gap. Silent.
type QueuedIndex struct {
	rebuildMu    sync.Mutex
	mu           sync.RWMutex
	measurements map[string]*measurement
}

func (i *QueuedIndex) Rebuild(names []string) {
	i.rebuildMu.Lock()
	defer i.rebuildMu.Unlock()
	for _, name := range names {
		i.rebuildOne(name)
	}
}

func (i *QueuedIndex) rebuildOne(name string) {
	i.mu.RLock()
	m := i.measurements[name]
	i.mu.RUnlock()
	if m == nil {
		return
	}
	nm := m.compact()
	i.mu.Lock()
	i.measurements[name] = nm
	i.mu.Unlock()
}

func (i *QueuedIndex) Drop(name string) {
	i.rebuildMu.Lock()
	defer i.rebuildMu.Unlock()
	i.mu.Lock()
	delete(i.measurements, name)
	i.mu.Unlock()
}

// CountedIndex's other writer only adds series counts that a rebuild
// tests for being large enough: raising them cannot undo the test.
// Silent.
type CountedIndex struct {
	rebuildMu sync.Mutex
	mu        sync.RWMutex
	counts    map[string]int
	rebuilt   map[string]bool
}

func (i *CountedIndex) Rebuild(names []string) {
	i.rebuildMu.Lock()
	defer i.rebuildMu.Unlock()
	for _, name := range names {
		i.rebuildOne(name)
	}
}

func (i *CountedIndex) rebuildOne(name string) {
	i.mu.RLock()
	n := i.counts[name]
	i.mu.RUnlock()
	if n < 100 {
		return
	}
	i.mu.Lock()
	i.counts[name] -= 100
	i.rebuilt[name] = true
	i.mu.Unlock()
}

func (i *CountedIndex) Add(name string) {
	i.mu.Lock()
	i.counts[name]++
	i.mu.Unlock()
}

// RestoredIndex's other writer fills the map from saved state, in
// goroutines its constructor waits for, after options that may fail:
// all before anyone else can see the index. Silent.
type RestoredIndex struct {
	rebuildMu    sync.Mutex
	mu           sync.RWMutex
	measurements map[string]*measurement
	limit        int
}

type IndexOption func(*RestoredIndex) error

func WithLimit(n int) IndexOption {
	return func(i *RestoredIndex) error {
		i.limit = n
		return nil
	}
}

func NewRestoredIndex(saved []string, opts ...IndexOption) (*RestoredIndex, error) {
	i := &RestoredIndex{measurements: make(map[string]*measurement)}
	for _, o := range opts {
		if err := o(i); err != nil {
			return nil, err
		}
	}
	i.restore(saved)
	return i, nil
}

func (i *RestoredIndex) restore(saved []string) {
	var wg sync.WaitGroup
	for _, name := range saved {
		wg.Add(1)
		go func() {
			defer wg.Done()
			i.mu.Lock()
			i.measurements[name] = &measurement{series: map[uint64]bool{}}
			i.mu.Unlock()
		}()
	}
	wg.Wait()
}

func (i *RestoredIndex) Rebuild(names []string) {
	i.rebuildMu.Lock()
	defer i.rebuildMu.Unlock()
	for _, name := range names {
		i.rebuildOne(name)
	}
}

func (i *RestoredIndex) rebuildOne(name string) {
	i.mu.RLock()
	m := i.measurements[name]
	i.mu.RUnlock()
	if m == nil {
		return
	}
	nm := m.compact()
	i.mu.Lock()
	i.measurements[name] = nm
	i.mu.Unlock()
}

// PrunedIndex drops through prune, which takes rebuildMu itself: Expire,
// which calls it, holds no lock, but the writer that matters is prune.
// Silent.
type PrunedIndex struct {
	rebuildMu    sync.Mutex
	mu           sync.RWMutex
	measurements map[string]*measurement
}

func (i *PrunedIndex) Rebuild(names []string) {
	i.rebuildMu.Lock()
	defer i.rebuildMu.Unlock()
	for _, name := range names {
		i.rebuildOne(name)
	}
}

func (i *PrunedIndex) rebuildOne(name string) {
	i.mu.RLock()
	m := i.measurements[name]
	i.mu.RUnlock()
	if m == nil {
		return
	}
	nm := m.compact()
	i.mu.Lock()
	i.measurements[name] = nm
	i.mu.Unlock()
}

func (i *PrunedIndex) prune(name string) {
	i.rebuildMu.Lock()
	defer i.rebuildMu.Unlock()
	i.mu.Lock()
	delete(i.measurements, name)
	i.mu.Unlock()
}

func (i *PrunedIndex) Expire(names []string) {
	for _, name := range names {
		i.prune(name)
	}
}

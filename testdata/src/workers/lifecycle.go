package workers

import "sync"

// Search indexes whose merger goroutine, started by Open, is the only
// writer of the current segment list while it runs. Open restores the
// saved list before starting it (through restore, and a closure restore
// runs in place; or in a closure of its own, CellIndex), and Close
// clears the list only after waiting for the merger to finish: neither
// can come between the merger's sections, so its read-then-swap is
// silent. The twins that let a writer in are reported: a Reload anyone
// may call while the merger runs, a Close that clears the list before
// waiting or waits on another WaitGroup, an Open that restores after
// starting the merger.

type segments struct{ names []string }

func appended(cur *segments, name string) *segments {
	if cur == nil {
		return &segments{names: []string{name}}
	}
	return &segments{names: append(append([]string(nil), cur.names...), name)}
}

type SearchIndex struct {
	mu       sync.RWMutex
	current  *segments
	incoming chan string
	quit     chan struct{}
	tasks    sync.WaitGroup
}

func (x *SearchIndex) Open(saved []string) {
	x.restore(saved)
	x.tasks.Add(1)
	go x.merge()
}

func (x *SearchIndex) restore(saved []string) {
	set := func(names []string) {
		x.mu.Lock()
		x.current = &segments{names: names}
		x.mu.Unlock()
	}
	set(saved)
}

func (x *SearchIndex) merge() {
	defer x.tasks.Done()
	for {
		select {
		case <-x.quit:
			return
		case name := <-x.incoming:
			x.mu.RLock()
			cur := x.current
			x.mu.RUnlock()
			next := appended(cur, name)
			x.mu.Lock()
			x.current = next
			x.mu.Unlock()
		}
	}
}

func (x *SearchIndex) Close() {
	close(x.quit)
	x.tasks.Wait()
	x.mu.Lock()
	x.current = nil
	x.mu.Unlock()
}

// GroupIndex starts its merger with the WaitGroup's Go method, which adds
// it to the group itself. Silent.
type GroupIndex struct {
	mu       sync.RWMutex
	current  *segments
	incoming chan string
	tasks    sync.WaitGroup
}

func (x *GroupIndex) Start() {
	x.tasks.Go(x.merge)
}

func (x *GroupIndex) merge() {
	for name := range x.incoming {
		x.mu.RLock()
		cur := x.current
		x.mu.RUnlock()
		next := appended(cur, name)
		x.mu.Lock()
		x.current = next
		x.mu.Unlock()
	}
}

func (x *GroupIndex) Stop() {
	close(x.incoming)
	x.tasks.Wait()
	x.mu.Lock()
	x.current = nil
	x.mu.Unlock()
}

// ReloadingIndex lets anyone replace the list while the merger runs: a
// Reload between the merger's sections is lost.
type ReloadingIndex struct {
	mu       sync.RWMutex
	current  *segments
	incoming chan string
	tasks    sync.WaitGroup
}

func (x *ReloadingIndex) Open() {
	x.tasks.Add(1)
	go x.merge()
}

func (x *ReloadingIndex) merge() {
	defer x.tasks.Done()
	for name := range x.incoming {
		x.mu.RLock()
		cur := x.current
		x.mu.RUnlock()
		next := appended(cur, name)
		x.mu.Lock() // want `x.mu is locked again for writing after RUnlock: the value written derives from cur, read under the read lock; an update made in between is lost; re-read it under the write lock`
		x.current = next
		x.mu.Unlock()
	}
}

func (x *ReloadingIndex) Reload(names []string) {
	x.mu.Lock()
	x.current = &segments{names: names}
	x.mu.Unlock()
}

// HastyIndex clears the list before waiting for the merger, which may
// still be between its sections.
type HastyIndex struct {
	mu       sync.RWMutex
	current  *segments
	incoming chan string
	tasks    sync.WaitGroup
}

func (x *HastyIndex) Open() {
	x.tasks.Add(1)
	go x.merge()
}

func (x *HastyIndex) merge() {
	defer x.tasks.Done()
	for name := range x.incoming {
		x.mu.RLock()
		cur := x.current
		x.mu.RUnlock()
		next := appended(cur, name)
		x.mu.Lock() // want `x.mu is locked again for writing after RUnlock: the value written derives from cur, read under the read lock; an update made in between is lost; re-read it under the write lock`
		x.current = next
		x.mu.Unlock()
	}
}

func (x *HastyIndex) Close() {
	x.mu.Lock()
	x.current = nil
	x.mu.Unlock()
	close(x.incoming)
	x.tasks.Wait()
}

// LateIndex restores the saved list after starting the merger.
type LateIndex struct {
	mu       sync.RWMutex
	current  *segments
	incoming chan string
}

func (x *LateIndex) Open(saved []string) {
	go x.merge()
	x.restore(saved)
}

func (x *LateIndex) restore(saved []string) {
	x.mu.Lock()
	x.current = &segments{names: saved}
	x.mu.Unlock()
}

func (x *LateIndex) merge() {
	for name := range x.incoming {
		x.mu.RLock()
		cur := x.current
		x.mu.RUnlock()
		next := appended(cur, name)
		x.mu.Lock() // want `x.mu is locked again for writing after RUnlock: the value written derives from cur, read under the read lock; an update made in between is lost; re-read it under the write lock`
		x.current = next
		x.mu.Unlock()
	}
}

// CellIndex restores in a closure of Open itself, which therefore keeps
// its receiver in a cell the closure shares. Silent, as SearchIndex.
type CellIndex struct {
	mu       sync.RWMutex
	current  *segments
	incoming chan string
}

func (x *CellIndex) Open(saved []string) {
	set := func(names []string) {
		x.mu.Lock()
		x.current = &segments{names: names}
		x.mu.Unlock()
	}
	set(saved)
	go x.merge()
}

func (x *CellIndex) merge() {
	for name := range x.incoming {
		x.mu.RLock()
		cur := x.current
		x.mu.RUnlock()
		next := appended(cur, name)
		x.mu.Lock()
		x.current = next
		x.mu.Unlock()
	}
}

// TwoGroupIndex waits in Close on a WaitGroup its merger is not in (the
// flushers'): the merger may still be between its sections. Reported.
type TwoGroupIndex struct {
	mu       sync.RWMutex
	current  *segments
	incoming chan string
	mergers  sync.WaitGroup
	flushers sync.WaitGroup
}

func (x *TwoGroupIndex) Open() {
	x.mergers.Add(1)
	go x.merge()
}

func (x *TwoGroupIndex) merge() {
	defer x.mergers.Done()
	for name := range x.incoming {
		x.mu.RLock()
		cur := x.current
		x.mu.RUnlock()
		next := appended(cur, name)
		x.mu.Lock() // want `x.mu is locked again for writing after RUnlock: the value written derives from cur, read under the read lock; an update made in between is lost; re-read it under the write lock`
		x.current = next
		x.mu.Unlock()
	}
}

func (x *TwoGroupIndex) Close() {
	x.flushers.Wait()
	x.mu.Lock()
	x.current = nil
	x.mu.Unlock()
}

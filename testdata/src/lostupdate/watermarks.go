package lostupdate

import (
	"sync"
	"time"
)

// Watermarks remembers, per source, the time up to which samples were
// collected. A collection reads the mark, queries from there and puts
// back the time of the last sample it saw.
type Watermarks struct {
	mu    sync.RWMutex
	marks map[string]time.Time
}

func (w *Watermarks) get(src string) (time.Time, bool) {
	w.mu.RLock()
	defer w.mu.RUnlock()
	t, ok := w.marks[src]
	return t, ok
}

// advance keeps the later of the stored mark and t: a collection that
// started from an older mark cannot move it back.
func (w *Watermarks) advance(src string, t time.Time) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if t.After(w.marks[src]) {
		w.marks[src] = t
	}
}

// advanceUnlessNewer says the same the other way round.
func (w *Watermarks) advanceUnlessNewer(src string, t time.Time) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.marks[src].Before(t) {
		return
	}
	w.marks[src] = t
}

// set stores t whatever the mark is by now.
func (w *Watermarks) set(src string, t time.Time) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.marks[src] = t
}

func (w *Watermarks) Collect(src string, samples func(from time.Time) []time.Time) {
	from, ok := w.get(src)
	if !ok {
		from = time.Now().Add(-time.Hour)
	}
	latest := from
	for _, s := range samples(from) {
		if s.After(latest) {
			latest = s
		}
	}
	w.advance(src, latest)
}

func (w *Watermarks) CollectBackwards(src string, samples func(from time.Time) []time.Time) {
	from, _ := w.get(src)
	latest := from
	for _, s := range samples(from) {
		if latest.Before(s) {
			latest = s
		}
	}
	w.advanceUnlessNewer(src, latest)
}

func (w *Watermarks) Rewind(src string, samples func(from time.Time) []time.Time) {
	from, _ := w.get(src)
	latest := from
	for _, s := range samples(from) {
		if s.After(latest) {
			latest = s
		}
	}
	w.set(src, latest) // want `w.mu is locked again for writing by w.set after RUnlock`
}

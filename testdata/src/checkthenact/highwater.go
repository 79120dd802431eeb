package checkthenact

import "sync"

// replayWindow keeps, per key epoch, the highest record number a
// connection has accepted. A record carries only the low bits of its
// number; the receiver expands them next to the highest number seen.
type replayWindow struct {
	mu      sync.Mutex
	highest map[uint64]uint64
	newest  uint64
}

func (w *replayWindow) Highest(epoch uint64) uint64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.highest[epoch]
}

// Accept records n as seen. It keeps the larger of the stored number and
// n, so a record opened against an older highest number cannot move the
// window back.
func (w *replayWindow) Accept(epoch, n uint64) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.highest[epoch] = max(w.highest[epoch], n)
	w.newest = max(w.newest, epoch)
}

// Reset stores n whatever the window holds by now.
func (w *replayWindow) Reset(epoch, n uint64) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.highest[epoch] = n
}

func expand(low uint16, near uint64) uint64 {
	n := near&^0xffff | uint64(low)
	if n+0x8000 < near {
		n += 0x10000
	}
	return n
}

// Open expands the number next to the highest seen and records it: the
// record may be opened beside another, but Accept keeps the larger.
func (w *replayWindow) Open(epoch uint64, low uint16) uint64 {
	n := expand(low, w.Highest(epoch))
	w.Accept(epoch, n)
	return n
}

// OpenInline does the same with the sections written out.
func (w *replayWindow) OpenInline(epoch uint64, low uint16) uint64 {
	w.mu.Lock()
	near := w.highest[epoch]
	w.mu.Unlock()

	n := expand(low, near)

	w.mu.Lock()
	w.highest[epoch] = max(w.highest[epoch], n)
	w.mu.Unlock()
	return n
}

// OpenAndReset stores the expanded number back as it is: a larger number
// another record stored in between is lost.
func (w *replayWindow) OpenAndReset(epoch uint64, low uint16) uint64 {
	n := expand(low, w.Highest(epoch))
	w.Reset(epoch, n) // want `w.mu is locked again by w.Reset after the section that checked`
	return n
}

// OpenMaxStale takes the larger of n and the number it read in the first
// section, not the one stored now: the same lost update.
func (w *replayWindow) OpenMaxStale(epoch uint64, low uint16) uint64 {
	w.mu.Lock()
	near := w.highest[epoch]
	w.mu.Unlock()

	n := expand(low, near)

	w.mu.Lock() // want `w.mu is locked again after the section that checked`
	w.highest[epoch] = max(near, n)
	w.mu.Unlock()
	return n
}

// OpenNewest expands a number of the newest epoch read in the first
// section, and raises that epoch's entry: by then it may be an old epoch.
func (w *replayWindow) OpenNewest(low uint16) uint64 {
	w.mu.Lock()
	epoch := w.newest
	near := w.highest[epoch]
	w.mu.Unlock()

	n := expand(low, near)

	w.mu.Lock() // want `w.mu is locked again after the section that checked`
	w.highest[epoch] = max(w.highest[epoch], n)
	w.mu.Unlock()
	return n
}

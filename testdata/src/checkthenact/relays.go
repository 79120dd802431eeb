package checkthenact

import (
	"sync"
	"time"
)

// RelayFinder keeps candidate relays, found over time, and the relays in
// use, each under its own lock.
type RelayFinder struct {
	cmu   sync.Mutex
	cands map[string]time.Time
	max   int

	rmu    sync.Mutex
	relays map[string]bool
}

// drop removes a candidate if it is still there; called under cmu.
func (f *RelayFinder) drop(id string) {
	if _, ok := f.cands[id]; ok {
		delete(f.cands, id)
	}
}

// recentLocked lists the candidates found in the last hour; called
// under cmu.
func (f *RelayFinder) recentLocked() []string {
	var ids []string
	for id, at := range f.cands {
		if time.Since(at) < time.Hour {
			ids = append(ids, id)
		}
	}
	return ids
}

// Prune drops, once there are enough candidates, the recent ones already
// in use: whether to drop one is a fresh test under the relay lock, and
// drop removes only what is still there; the count only said whether to
// look. Silent.
func (f *RelayFinder) Prune(enough int) {
	f.cmu.Lock()
	if len(f.cands) < enough {
		f.cmu.Unlock()
		return
	}
	ids := f.recentLocked()
	f.cmu.Unlock()

	for _, id := range ids {
		f.rmu.Lock()
		using := f.relays[id]
		f.rmu.Unlock()
		if using {
			f.cmu.Lock()
			f.drop(id)
			f.cmu.Unlock()
		}
	}
}

// Shed drops one recent candidate when there were more than max: two
// Sheds in between both drop one, and the set ends below its bound.
func (f *RelayFinder) Shed() {
	f.cmu.Lock()
	if len(f.cands) <= f.max {
		f.cmu.Unlock()
		return
	}
	ids := f.recentLocked()
	f.cmu.Unlock()
	if len(ids) == 0 {
		return
	}

	f.cmu.Lock() // want `f.cmu is locked again after the section that checked: the write is decided by`
	f.drop(ids[0])
	f.cmu.Unlock()
}

// ShedListed is Shed with the listing made in place: the entries A went
// through do not make drop's "still there" a re-check of the count.
func (f *RelayFinder) ShedListed() {
	f.cmu.Lock()
	if len(f.cands) <= f.max {
		f.cmu.Unlock()
		return
	}
	var oldest string
	var at time.Time
	for id, t := range f.cands {
		if oldest == "" || t.Before(at) {
			oldest, at = id, t
		}
	}
	f.cmu.Unlock()

	f.cmu.Lock() // want `f.cmu is locked again after the section that checked: the write is decided by f.cands, read in an earlier section`
	f.drop(oldest)
	f.cmu.Unlock()
}

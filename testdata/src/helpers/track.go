package helpers

import "sync"

type source struct{ kind string }

// Track follows the payload type of the packets it receives and the codec
// that goes with it.
type Track struct {
	mu       sync.RWMutex
	pt       uint8
	codec    string
	kind     string
	src      *source
	switches int
	previous uint8
}

func (t *Track) PayloadType() uint8 {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.pt
}

func codecFor(pt uint8) string {
	if pt < 96 {
		return "static"
	}
	return "dynamic"
}

// Observe switches the track to the packet's payload type when it
// differs: everything it stores is the packet's type, looked up by it, or
// read fresh. A racer switching to the same type in between stores the
// same things. Silent.
func (t *Track) Observe(pt uint8) {
	if pt != t.PayloadType() || t.codec == "" {
		t.mu.Lock()
		defer t.mu.Unlock()
		t.kind = t.src.kind
		t.pt = pt
		t.codec = codecFor(pt)
	}
}

// ObserveCounted counts the switch too: a racer's switch to the same type
// is counted twice.
func (t *Track) ObserveCounted(pt uint8) {
	if pt != t.PayloadType() {
		t.mu.Lock() // want `t.mu is locked again for writing after RUnlock: the write is decided by t.PayloadType\(\)`
		defer t.mu.Unlock()
		t.pt = pt
		t.codec = codecFor(pt)
		t.switches++
	}
}

// ObserveRemembering keeps the type it saw before the switch: a racer's
// switch in between is remembered as the wrong one.
func (t *Track) ObserveRemembering(pt uint8) {
	if old := t.PayloadType(); pt != old {
		t.mu.Lock() // want `t.mu is locked again for writing after RUnlock: the write is decided by old, read under the read lock`
		defer t.mu.Unlock()
		t.previous = old
		t.pt = pt
	}
}

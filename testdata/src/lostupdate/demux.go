package lostupdate

import "sync"

type frame struct {
	id     string
	attach bool
	data   []byte
}

type channel struct {
	id  string
	in  chan []byte
	bad bool
}

func (c *channel) deliver(f frame) bool {
	select {
	case c.in <- f.data:
		return true
	default:
		return false
	}
}

// Demux hands each frame to the channel it names. Its read loop adds a
// channel when a frame says so, at the top of a turn; the lookup at the
// bottom of the turn before only decided whether the loop went on, not
// what that store puts in.
type Demux struct {
	mu       sync.RWMutex
	channels map[string]*channel
}

func (d *Demux) readLoop(frames <-chan frame) {
	for f := range frames {
		if f.attach {
			d.mu.Lock()
			d.channels[f.id] = &channel{id: f.id, in: make(chan []byte, 8)}
			d.mu.Unlock()
		}
		d.mu.RLock()
		c := d.channels[f.id]
		d.mu.RUnlock()
		if c == nil {
			continue
		}
		if !c.deliver(f) {
			return
		}
	}
}

// Mark, in the same turn, sets a flag on the channel the lookup found,
// under the write lock: a channel replaced in between is not marked.
func (d *Demux) Mark(frames <-chan frame) {
	for f := range frames {
		d.mu.RLock()
		c := d.channels[f.id]
		d.mu.RUnlock()
		if c == nil {
			continue
		}
		d.mu.Lock() // want `d.mu is locked again for writing after RUnlock`
		c.bad = true
		d.mu.Unlock()
	}
}

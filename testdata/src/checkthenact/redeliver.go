package checkthenact

import "sync"

type parcel struct {
	dest string
	body []byte
}

func hand(m parcel) bool { return len(m.body) > 0 }

// Courier queues parcels for destinations that come and go.
type Courier struct {
	mu      sync.Mutex
	pending []parcel
}

func (o *Courier) Queue(m parcel) {
	o.mu.Lock()
	o.pending = append(o.pending, m)
	o.mu.Unlock()
}

// Flush takes a destination's parcels out of the queue in one section,
// hands them over with no lock held, and puts the failed ones back in a
// second section, appended to the queue as it is then: what others
// queued in between stays, and no one else could take the parcels
// Flush took out. Silent.
func (o *Courier) Flush(dest string) {
	o.mu.Lock()
	var due []parcel
	kept := o.pending[:0]
	for _, m := range o.pending {
		if m.dest == dest {
			due = append(due, m)
			continue
		}
		kept = append(kept, m)
	}
	o.pending = kept
	o.mu.Unlock()

	var failed []parcel
	for _, m := range due {
		if !hand(m) {
			failed = append(failed, m)
		}
	}
	if len(failed) == 0 {
		return
	}
	o.mu.Lock()
	o.pending = append(o.pending, failed...)
	o.mu.Unlock()
}

// Resend takes a destination's parcels out as Flush does, but puts the
// failed ones back on the list it kept in the first section: whatever
// Queue added in between is dropped.
func (o *Courier) Resend(dest string) {
	o.mu.Lock()
	var due []parcel
	kept := o.pending[:0]
	for _, m := range o.pending {
		if m.dest == dest {
			due = append(due, m)
			continue
		}
		kept = append(kept, m)
	}
	o.pending = kept
	o.mu.Unlock()

	var failed []parcel
	for _, m := range due {
		if !hand(m) {
			failed = append(failed, m)
		}
	}
	o.mu.Lock() // want `o.mu is locked again after the section that checked: the value written derives from o.pending`
	o.pending = append(kept, failed...)
	o.mu.Unlock()
}

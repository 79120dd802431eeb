package checkthenact

import (
	"errors"
	"sync"
)

// Outbox batches acknowledgements; flush swaps the pending set for an
// empty one and sends what it took.
type Outbox struct {
	mu      sync.Mutex
	pending map[int64]string
	send    func(map[int64]string) error
}

// flush takes the whole pending set in its first section. When the send
// fails, putBack returns the batch entry by entry, keeping any entry a
// producer queued for the same id in between: each key is looked up again
// under the lock. Silent.
func (o *Outbox) flush() error {
	var batch map[int64]string
	func() {
		o.mu.Lock()
		defer o.mu.Unlock()
		batch = o.pending
		if len(batch) > 0 {
			o.pending = make(map[int64]string)
		} else {
			batch = nil
		}
	}()
	if len(batch) == 0 {
		return nil
	}
	if err := o.send(batch); err != nil {
		o.putBack(batch)
		return err
	}
	return nil
}

func (o *Outbox) putBack(batch map[int64]string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	for id, ack := range batch {
		if _, queued := o.pending[id]; queued {
			continue
		}
		o.pending[id] = ack
	}
}

// Retry sizes its decision on a count read in one section and, in the
// next, stores each id of its list without looking: an id a producer
// queued in between is overwritten with the stale ack.
func (o *Outbox) Retry(ids []int64, ack string) error {
	o.mu.Lock()
	n := len(o.pending)
	o.mu.Unlock()
	if n > 100 {
		return errors.New("outbox full")
	}
	o.mu.Lock() // want `o.mu is locked again after the section that checked`
	for _, id := range ids {
		o.pending[id] = ack
	}
	o.mu.Unlock()
	return nil
}

// takeAll hands the pending set over and leaves an empty one behind.
func (o *Outbox) takeAll() map[int64]string {
	o.mu.Lock()
	defer o.mu.Unlock()
	batch := o.pending
	o.pending = make(map[int64]string)
	return batch
}

// Drain owns what takeAll handed it: putting an entry back where none
// was queued since decides on nothing another caller could have seen.
// Silent.
func (o *Outbox) Drain() {
	batch := o.takeAll()
	if len(batch) == 0 {
		return
	}
	if o.send(batch) != nil {
		o.putBack(batch)
	}
}

// Berth is taken by one owner at a time.
type Berth struct {
	mu    sync.Mutex
	owner *string
}

// vacate clears an owner whose name is empty and says whether the berth
// is free. It hands no old owner over: the nil it leaves claims nothing.
func (b *Berth) vacate() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.owner != nil && *b.owner == "" {
		b.owner = nil
	}
	return b.owner == nil
}

// Moor takes the berth on a stale "free": two callers both moor.
func (b *Berth) Moor(name string) bool {
	if !b.vacate() {
		return false
	}
	b.mu.Lock() // want `b.mu is locked again after the section that checked`
	b.owner = &name
	b.mu.Unlock()
	return true
}

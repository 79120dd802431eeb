package workers

import (
	"sync"
	"time"
)

// CheckpointStore keeps the last offset saved.
type CheckpointStore interface {
	Save(offset int64) error
	Load() (int64, error)
}

// Checkpointer recovers its last checkpoint when it is built, then a
// goroutine of its own saves the offset on every tick where it moved.
// Once that goroutine runs it alone writes lastSaved; the recovery wrote
// it before the goroutine existed. Silent.
type Checkpointer struct {
	mu        sync.RWMutex
	next      int64
	lastSaved int64
	saves     int // checkpoints written, for metrics
	store     CheckpointStore
	stop      chan struct{}
}

func NewCheckpointer(store CheckpointStore) (*Checkpointer, error) {
	c := &Checkpointer{store: store, stop: make(chan struct{})}
	if err := c.recover(); err != nil {
		return nil, err
	}
	go c.run()
	return c, nil
}

func (c *Checkpointer) recover() error {
	off, err := c.store.Load()
	if err != nil {
		return err
	}
	c.mu.Lock()
	c.next, c.lastSaved = off+1, off
	c.mu.Unlock()
	return nil
}

func (c *Checkpointer) run() {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			c.saveIfMoved()
		case <-c.stop:
			return
		}
	}
}

func (c *Checkpointer) saveIfMoved() {
	c.mu.RLock()
	cur, last := c.next-1, c.lastSaved
	c.mu.RUnlock()
	if cur < 0 || cur == last {
		return
	}
	if c.store.Save(cur) != nil {
		return
	}
	c.mu.Lock()
	c.lastSaved = cur
	c.saves++
	c.mu.Unlock()
}

// Assign hands out the next offset.
func (c *Checkpointer) Assign() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := c.next
	c.next++
	return n
}

// Partitions opens a checkpointer per partition: one saving goroutine
// per checkpointer.
type Partitions struct {
	mu    sync.Mutex
	byKey map[string]*Checkpointer
}

func (p *Partitions) OpenAll(stores map[string]CheckpointStore) error {
	for key, store := range stores {
		c, err := NewCheckpointer(store)
		if err != nil {
			return err
		}
		p.mu.Lock()
		p.byKey[key] = c
		p.mu.Unlock()
	}
	return nil
}

// RewindableCheckpointer is the same, but Rewind, which anyone may call
// at any time, writes lastSaved too: a rewind between the saver's read
// and its store is overwritten.
type RewindableCheckpointer struct {
	mu        sync.RWMutex
	next      int64
	lastSaved int64
	saves     int // checkpoints written, for metrics
	store     CheckpointStore
}

func NewRewindableCheckpointer(store CheckpointStore) *RewindableCheckpointer {
	c := &RewindableCheckpointer{store: store}
	go c.run()
	return c
}

func (c *RewindableCheckpointer) run() {
	for range time.Tick(time.Second) {
		c.saveIfMoved()
	}
}

func (c *RewindableCheckpointer) saveIfMoved() {
	c.mu.RLock()
	cur, last := c.next-1, c.lastSaved
	c.mu.RUnlock()
	if cur < 0 || cur == last {
		return
	}
	if c.store.Save(cur) != nil {
		return
	}
	c.mu.Lock() // want `c.mu is locked again for writing after RUnlock: the write is decided by last`
	c.lastSaved = cur
	c.saves++
	c.mu.Unlock()
}

func (c *RewindableCheckpointer) Rewind(to int64) {
	c.mu.Lock()
	c.next, c.lastSaved = to+1, to
	c.mu.Unlock()
}

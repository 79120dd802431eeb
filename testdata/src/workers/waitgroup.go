package workers

import (
	"sync"
	"time"

	"golang.org/x/sync/errgroup"
)

// The checkpointers of checkpoint.go, started with sync.WaitGroup.Go or
// errgroup.Group.Go instead of a go statement: wg.Go(c.run) is go
// c.run(), and the saver still runs on one goroutine per object.

// GroupCheckpointer starts its saver with wg.Go and a method value.
// Silent.
type GroupCheckpointer struct {
	mu        sync.RWMutex
	next      int64
	lastSaved int64
	saves     int // checkpoints written, for metrics
	store     CheckpointStore
	rewinds   chan struct{}
	wg        sync.WaitGroup
}

func NewGroupCheckpointer(store CheckpointStore) *GroupCheckpointer {
	c := &GroupCheckpointer{store: store}
	c.wg.Go(c.run)
	return c
}

func (c *GroupCheckpointer) run() {
	tick := time.Tick(time.Second)
	for {
		select {
		case <-tick:
			c.saveIfMoved()
		case <-c.rewinds:
			c.rewind()
		}
	}
}

// rewind runs on the saver's goroutine too.
func (c *GroupCheckpointer) rewind() {
	c.mu.Lock()
	c.lastSaved = -1
	c.mu.Unlock()
}

func (c *GroupCheckpointer) saveIfMoved() {
	c.mu.RLock()
	cur, last := c.next-1, c.lastSaved
	c.mu.RUnlock()
	if cur < 0 || cur == last || c.store.Save(cur) != nil {
		return
	}
	c.mu.Lock()
	c.lastSaved = cur
	c.saves++
	c.mu.Unlock()
}

func (c *GroupCheckpointer) Assign() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := c.next
	c.next++
	return n
}

// ErrgroupCheckpointer starts its saver with an errgroup and a function
// literal. Silent.
type ErrgroupCheckpointer struct {
	mu        sync.RWMutex
	next      int64
	lastSaved int64
	saves     int // checkpoints written, for metrics
	store     CheckpointStore
	rewinds   chan struct{}
	group     errgroup.Group
}

func NewErrgroupCheckpointer(store CheckpointStore) *ErrgroupCheckpointer {
	c := &ErrgroupCheckpointer{store: store}
	c.group.Go(func() error {
		tick := time.Tick(time.Second)
		for {
			select {
			case <-tick:
				c.saveIfMoved()
			case <-c.rewinds:
				c.rewind()
			}
		}
	})
	return c
}

func (c *ErrgroupCheckpointer) rewind() {
	c.mu.Lock()
	c.lastSaved = -1
	c.mu.Unlock()
}

func (c *ErrgroupCheckpointer) saveIfMoved() {
	c.mu.RLock()
	cur, last := c.next-1, c.lastSaved
	c.mu.RUnlock()
	if cur < 0 || cur == last || c.store.Save(cur) != nil {
		return
	}
	c.mu.Lock()
	c.lastSaved = cur
	c.saves++
	c.mu.Unlock()
}

// PooledCheckpointer starts a saver per shard, all on the same object:
// two savers may interleave. Reported.
type PooledCheckpointer struct {
	mu        sync.RWMutex
	next      int64
	lastSaved int64
	saves     int // checkpoints written, for metrics
	store     CheckpointStore
	rewinds   chan struct{}
	wg        sync.WaitGroup
}

func NewPooledCheckpointer(store CheckpointStore, shards int) *PooledCheckpointer {
	c := &PooledCheckpointer{store: store}
	for range shards {
		c.wg.Go(c.run)
	}
	return c
}

func (c *PooledCheckpointer) run() {
	tick := time.Tick(time.Second)
	for {
		select {
		case <-tick:
			c.saveIfMoved()
		case <-c.rewinds:
			c.rewind()
		}
	}
}

// rewind runs on the saver's goroutine too.
func (c *PooledCheckpointer) rewind() {
	c.mu.Lock()
	c.lastSaved = -1
	c.mu.Unlock()
}

func (c *PooledCheckpointer) saveIfMoved() {
	c.mu.RLock()
	cur, last := c.next-1, c.lastSaved
	c.mu.RUnlock()
	if cur < 0 || cur == last || c.store.Save(cur) != nil {
		return
	}
	c.mu.Lock() // want `c.mu is locked again for writing after RUnlock: the write is decided by last`
	c.lastSaved = cur
	c.saves++
	c.mu.Unlock()
}

// HandedCheckpointer gives its saver to a caller-supplied group: the
// method value leaves the package's sight, and anyone may run it again.
// Reported.
type HandedCheckpointer struct {
	mu        sync.RWMutex
	next      int64
	lastSaved int64
	saves     int // checkpoints written, for metrics
	store     CheckpointStore
	rewinds   chan struct{}
}

func (c *HandedCheckpointer) Start(spawn func(func())) {
	spawn(c.run)
}

func (c *HandedCheckpointer) run() {
	tick := time.Tick(time.Second)
	for {
		select {
		case <-tick:
			c.saveIfMoved()
		case <-c.rewinds:
			c.rewind()
		}
	}
}

// rewind runs on the saver's goroutine too.
func (c *HandedCheckpointer) rewind() {
	c.mu.Lock()
	c.lastSaved = -1
	c.mu.Unlock()
}

func (c *HandedCheckpointer) saveIfMoved() {
	c.mu.RLock()
	cur, last := c.next-1, c.lastSaved
	c.mu.RUnlock()
	if cur < 0 || cur == last || c.store.Save(cur) != nil {
		return
	}
	c.mu.Lock() // want `c.mu is locked again for writing after RUnlock: the write is decided by last`
	c.lastSaved = cur
	c.saves++
	c.mu.Unlock()
}

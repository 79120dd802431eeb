package workers

import "sync"

// Collector batches points on one goroutine per Open. Only that goroutine
// sets ready (once the database exists); Open and Close write other
// fields under the same lock. A stale "not ready" can only be its own.
type Collector struct {
	mu      sync.RWMutex
	ready   bool
	closing bool
	batches chan []string
	create  func() error
	wg      sync.WaitGroup
}

func (c *Collector) Open() {
	c.mu.Lock()
	c.closing = false
	c.batches = make(chan []string)
	c.mu.Unlock()
	c.wg.Add(1)
	go func() { defer c.wg.Done(); c.writeBatches() }()
}

func (c *Collector) Close() {
	c.mu.Lock()
	c.closing = true
	c.mu.Unlock()
}

func (c *Collector) writeBatches() {
	for b := range c.batches {
		if err := c.ensureDatabase(); err != nil {
			continue
		}
		_ = b
	}
}

func (c *Collector) ensureDatabase() error {
	c.mu.RLock()
	ready := c.ready
	c.mu.RUnlock()
	if ready {
		return nil
	}
	if err := c.create(); err != nil {
		return err
	}
	c.mu.Lock()
	c.ready = true
	c.mu.Unlock()
	return nil
}

// Listener runs several writers, each of which may create the database:
// they race on ready.
type Listener struct {
	mu      sync.RWMutex
	ready   bool
	writers int
	points  chan string
	create  func() error
}

func (l *Listener) Open() {
	for i := 0; i < l.writers; i++ {
		go l.write()
	}
}

func (l *Listener) write() {
	for range l.points {
		_ = l.ensureDatabase()
	}
}

func (l *Listener) ensureDatabase() error {
	l.mu.RLock()
	ready := l.ready
	l.mu.RUnlock()
	if ready {
		return nil
	}
	if err := l.create(); err != nil {
		return err
	}
	l.mu.Lock() // want `l.mu is locked again for writing after RUnlock: the write is decided by ready`
	l.ready = true
	l.mu.Unlock()
	return nil
}

// Deriver looks for new accounts on its own goroutine, but SelfDerive,
// called by users, resets the cursor the loop copied: the loop's store of
// its advanced copy overwrites the reset.
type Deriver struct {
	mu     sync.RWMutex
	cursor []int
	wake   chan struct{}
}

func (d *Deriver) Open() {
	go d.derive()
}

func (d *Deriver) SelfDerive(bases []int) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.cursor = append([]int(nil), bases...)
}

func (d *Deriver) derive() {
	for range d.wake {
		d.mu.RLock()
		next := append([]int(nil), d.cursor...)
		d.mu.RUnlock()
		for i := range next {
			next[i]++
		}
		d.mu.Lock() // want `d.mu is locked again for writing after RUnlock: the value written derives from next`
		d.cursor = next
		d.mu.Unlock()
	}
}

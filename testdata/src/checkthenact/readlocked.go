package checkthenact

import "sync"

// hitCounter's bump reads a count in one section and stores it plus one
// in the next. Its callers hold the counter's outer lock around it: for
// writing, that keeps two bumps apart (silent); for reading, it does not,
// since many readers hold a read lock at once.
type hitCounter struct {
	outer sync.RWMutex
	mu    sync.Mutex
	hits  map[string]int
}

func (c *hitCounter) bump(page string) {
	c.mu.Lock()
	n := c.hits[page]
	c.mu.Unlock()
	n++
	c.mu.Lock()
	c.hits[page] = n
	c.mu.Unlock()
}

func (c *hitCounter) Hit(page string) {
	c.outer.Lock()
	defer c.outer.Unlock()
	c.bump(page)
}

type sharedHitCounter struct {
	outer sync.RWMutex
	mu    sync.Mutex
	hits  map[string]int
}

func (c *sharedHitCounter) bump(page string) {
	c.mu.Lock()
	n := c.hits[page]
	c.mu.Unlock()
	n++
	c.mu.Lock() // want `c.mu is locked again after the section that checked`
	c.hits[page] = n
	c.mu.Unlock()
}

func (c *sharedHitCounter) Hit(page string) {
	c.outer.RLock()
	defer c.outer.RUnlock()
	c.bump(page)
}

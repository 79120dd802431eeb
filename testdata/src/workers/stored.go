package workers

import (
	"sync"

	"workers/boltish"
)

// A catalog whose compactor goroutine, started by Open, is the only
// writer of the current snapshot while it runs. Open loads the saved
// snapshot inside a read transaction of the store before starting it:
// the store's View calls the closure back before returning (a fact of
// its package, which never touches sync), so the load happens before the
// compactor exists and the compactor's read-then-swap is silent. Loading
// through ViewLater, which runs the closure on a goroutine of its own,
// lets a writer in beside the compactor: reported.

type snapshot struct{ names []string }

func grown(cur *snapshot, name string) *snapshot {
	return &snapshot{names: append(append([]string(nil), cur.names...), name)}
}

type Catalog struct {
	mu      sync.RWMutex
	current *snapshot
	db      *boltish.DB
	added   chan string
	tasks   sync.WaitGroup
}

func (c *Catalog) Open() error {
	if err := c.load(); err != nil {
		return err
	}
	c.tasks.Add(1)
	go c.compact()
	return nil
}

func (c *Catalog) load() error {
	return c.db.View(func(tx *boltish.Tx) error {
		c.mu.Lock()
		c.current = &snapshot{names: []string{tx.Get("root")}}
		c.mu.Unlock()
		return nil
	})
}

func (c *Catalog) compact() {
	defer c.tasks.Done()
	for name := range c.added {
		c.mu.RLock()
		cur := c.current
		c.mu.RUnlock()
		next := grown(cur, name)
		c.mu.Lock()
		c.current = next
		c.mu.Unlock()
	}
}

type LateCatalog struct {
	mu      sync.RWMutex
	current *snapshot
	db      *boltish.DB
	added   chan string
	tasks   sync.WaitGroup
}

func (c *LateCatalog) Open() {
	c.load()
	c.tasks.Add(1)
	go c.compact()
}

func (c *LateCatalog) load() {
	c.db.ViewLater(func(tx *boltish.Tx) error {
		c.mu.Lock()
		c.current = &snapshot{names: []string{tx.Get("root")}}
		c.mu.Unlock()
		return nil
	})
}

func (c *LateCatalog) compact() {
	defer c.tasks.Done()
	for name := range c.added {
		c.mu.RLock()
		cur := c.current
		c.mu.RUnlock()
		next := grown(cur, name)
		c.mu.Lock() // want `c.mu is locked again for writing after RUnlock: the value written derives from cur`
		c.current = next
		c.mu.Unlock()
	}
}

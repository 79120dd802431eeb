package startup

import "sync"

type Volume struct {
	Name   string
	Driver string
}

// Catalog is restored from disk by its constructor before it is handed
// out; afterwards Create adds volumes with the same check-then-store,
// under one section.
type Catalog struct {
	mu      sync.RWMutex
	volumes map[string]*Volume
	saved   func() []Volume
}

func NewCatalog(saved func() []Volume) *Catalog {
	c := &Catalog{volumes: map[string]*Volume{}, saved: saved}
	c.restore()
	return c
}

// restore sees only the catalog its constructor is building: no one else
// holds c yet, so nothing can store a volume between the two sections.
func (c *Catalog) restore() {
	for _, v := range c.saved() {
		c.mu.RLock()
		_, ok := c.volumes[v.Name]
		c.mu.RUnlock()
		if ok {
			continue
		}
		restored := v
		c.mu.Lock()
		c.volumes[v.Name] = &restored
		c.mu.Unlock()
	}
}

func (c *Catalog) Create(name, driver string) *Volume {
	c.mu.Lock()
	defer c.mu.Unlock()
	if v, ok := c.volumes[name]; ok {
		return v
	}
	v := &Volume{Name: name, Driver: driver}
	c.volumes[name] = v
	return v
}

// NewWatchedCatalog starts the catalog's watcher before restoring: the
// watcher's adds run beside the restore, and a volume it adds in the gap
// is replaced.
func NewWatchedCatalog(saved func() []Volume, events <-chan Volume) *Catalog {
	c := &Catalog{volumes: map[string]*Volume{}, saved: saved}
	go c.watch(events)
	c.restoreSaved()
	return c
}

func (c *Catalog) watch(events <-chan Volume) {
	for v := range events {
		c.Create(v.Name, v.Driver)
	}
}

func (c *Catalog) restoreSaved() {
	for _, v := range c.saved() {
		c.mu.RLock()
		_, ok := c.volumes[v.Name]
		c.mu.RUnlock()
		if ok {
			continue
		}
		restored := v
		c.mu.Lock() // want `c.mu is locked again for writing after RUnlock: c.volumes\[v.Name\] was missing under the read lock`
		c.volumes[v.Name] = &restored
		c.mu.Unlock()
	}
}

// Reload runs the same restore on a catalog in use: Create can add a
// volume in the gap.
func (c *Catalog) Reload() { c.restoreSaved() }

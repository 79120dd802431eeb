// Package ignores exercises //lockgap:ignore directives.
package ignores

import "sync"

type Cache struct {
	mu    sync.RWMutex
	items map[string]*int
}

func (c *Cache) fill(k string) *int {
	c.mu.RLock()
	v := c.items[k]
	c.mu.RUnlock()
	if v != nil {
		return v
	}
	v = new(int)
	//lockgap:ignore rlockgap filled once at start-up, before any reader runs
	c.mu.Lock()
	c.items[k] = v
	c.mu.Unlock()
	return v
}

// Warm is only called from init.
//
//lockgap:ignore rlockgap,staleguard single-threaded start-up
func (c *Cache) Warm(k string) *int {
	c.mu.RLock()
	v := c.items[k]
	c.mu.RUnlock()
	if v != nil {
		return v
	}
	v = new(int)
	c.mu.Lock()
	c.items[k] = v
	c.mu.Unlock()
	return v
}

func (c *Cache) Other(k string) *int {
	c.mu.RLock()
	v := c.items[k]
	c.mu.RUnlock()
	if v != nil {
		return v
	}
	v = new(int)
	c.mu.Lock() //lockgap:ignore staleguard names the wrong pass // want `c.mu is locked again for writing after RUnlock`
	c.items[k] = v
	c.mu.Unlock()
	return v
}

func (c *Cache) NoReason(k string) *int {
	c.mu.RLock()
	v := c.items[k]
	c.mu.RUnlock()
	if v != nil {
		return v
	}
	v = new(int)
	//lockgap:ignore rlockgap // want `lockgap:ignore needs the passes it silences and a reason`
	c.mu.Lock() // want `c.mu is locked again for writing after RUnlock`
	c.items[k] = v
	c.mu.Unlock()
	return v
}

// Quiet has nothing to silence.
func (c *Cache) Quiet(k string) *int {
	c.mu.Lock()
	defer c.mu.Unlock()
	//lockgap:ignore rlockgap nothing here is stale // want `lockgap:ignore names rlockgap but silences none of its findings`
	return c.items[k]
}

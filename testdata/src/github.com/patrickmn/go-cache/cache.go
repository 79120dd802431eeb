// Package cache stands in, in lockgap's own words, for an in-memory
// key/value store that keeps its own lock inside (the shape of
// github.com/patrickmn/go-cache): an exported handle embeds a pointer
// to the unexported store.
package cache

import "sync"

type Item struct{ Object any }

type Cache struct{ *cache }

type cache struct {
	mu    sync.RWMutex
	items map[string]Item
}

func New() *Cache { return &Cache{&cache{items: map[string]Item{}}} }

func (c *cache) Get(k string) (any, bool) {
	c.mu.RLock()
	it, ok := c.items[k]
	c.mu.RUnlock()
	if !ok {
		return nil, false
	}
	return it.Object, true
}

func (c *cache) Set(k string, x any) {
	c.mu.Lock()
	c.items[k] = Item{Object: x}
	c.mu.Unlock()
}

func (c *cache) Delete(k string) {
	c.mu.Lock()
	delete(c.items, k)
	c.mu.Unlock()
}

// Flush removes every item.
func (c *cache) Flush() {
	c.mu.Lock()
	c.items = map[string]Item{}
	c.mu.Unlock()
}

package checkthenact

import "sync"

// TileCache keeps rendered map tiles, up to limit of them. put makes room
// itself: under the lock, it counts the tiles again and drops one when the
// cache is full, before it inserts.
type TileCache struct {
	mu      sync.Mutex
	tiles   map[string][]byte
	limit   int
	offline bool // set once at start: the renderer is not reachable
	disk    func(key string) ([]byte, error)
	render  func(key string) []byte
	strips  map[string]map[int][]byte // tiles by strip, then position

	flushMu sync.Mutex
	flushed []string // keys for the next flush to write out
}

func (c *TileCache) put(key string, tile []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.tiles) >= c.limit {
		for k := range c.tiles {
			delete(c.tiles, k)
			break
		}
	}
	c.tiles[key] = tile
}

// Reload goes to disk for a tile the cache lacks when the renderer is
// offline, or when the cache is close to full (put may have dropped the
// tile to make room). The count only says whether the disk is worth
// asking: a stale count that sends it there overstated the fill, the load
// is one the caller needs anyway, and put judges the room again under the
// lock. Silent.
func (c *TileCache) Reload(key string) []byte {
	c.mu.Lock()
	n := len(c.tiles)
	c.mu.Unlock()
	nearlyFull := c.limit > 0 && n >= c.limit*9/10
	if c.offline || nearlyFull {
		if tile, err := c.disk(key); err == nil {
			c.put(key, tile)
			return tile
		}
	}
	return nil
}

// Restore puts a copy back only when the cache has grown past half its
// limit (below that, nothing was dropped and a miss is a real miss). A
// stale count can make it put back a tile that was not dropped: the
// entry is replaced by the same tile. Silent.
func (c *TileCache) Restore(key string, tile []byte) {
	c.mu.Lock()
	n := len(c.tiles)
	c.mu.Unlock()
	if n < c.limit/2 {
		return
	}
	c.mu.Lock()
	c.tiles[key] = tile
	c.mu.Unlock()
}

// Admit renders a tile only while the cache has room: the count is read
// in one section and the tile inserted in another, so callers racing past
// the same count overfill the cache.
func (c *TileCache) Admit(key string) {
	c.mu.Lock()
	n := len(c.tiles)
	c.mu.Unlock()
	if c.offline || n >= c.limit {
		return
	}
	tile := c.render(key)
	c.mu.Lock() // want `c.mu is locked again after the section that checked: the write is decided by n, read in an earlier section, which may be stale`
	c.tiles[key] = tile
	c.mu.Unlock()
}

// Trim drops one tile when the cache looks full: two callers that both
// saw it full both drop one.
func (c *TileCache) Trim() {
	c.mu.Lock()
	n := len(c.tiles)
	c.mu.Unlock()
	if n < c.limit {
		return
	}
	c.mu.Lock() // want `c.mu is locked again after the section that checked: the write is decided by n, read in an earlier section, which may be stale`
	for k := range c.tiles {
		delete(c.tiles, k)
		break
	}
	c.mu.Unlock()
}

// Repaint re-renders the tiles of a strip, one per section so readers
// get in between: the count it loops to may be stale, and a strip cut
// short in between gets its removed tiles back.
func (c *TileCache) Repaint(strip string) {
	c.mu.Lock()
	n := len(c.strips[strip])
	c.mu.Unlock()
	for i := 0; i < n; i++ {
		tile := c.render(strip)
		c.mu.Lock() // want `c.mu is locked again after the section that checked: the write is decided by n, read in an earlier section, which may be stale`
		c.strips[strip][i] = tile
		c.mu.Unlock()
	}
}

// Queue joins a batch a flush is already due for when the list is not
// empty, and starts the flush otherwise; if the flush ran in between, the
// key waits for a flush nobody starts.
func (c *TileCache) Queue(key string, flush func()) {
	c.flushMu.Lock()
	n := len(c.flushed)
	c.flushMu.Unlock()
	if n > 0 {
		c.flushMu.Lock() // want `c.flushMu is locked again after the section that checked: the write is decided by n, read in an earlier section, which may be stale`
		c.flushed = append(c.flushed, key)
		c.flushMu.Unlock()
		return
	}
	c.flushMu.Lock()
	c.flushed = append(c.flushed, key)
	c.flushMu.Unlock()
	go flush()
}

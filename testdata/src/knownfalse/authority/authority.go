// Package authority keeps a chain of signed updates. Heads holds the
// read lock and reads each head's update through Update, which takes
// the read lock again: known false in its program, where every method of
// Chain, the writers included, is called only by a backend in another
// package with its own mutex held, so no Lock can wait between the two
// RLocks (a lock held by callers in another package, through direct
// calls).
package authority

import (
	"errors"
	"sync"
)

type Update struct {
	Hash   string
	Parent string
}

type Chain struct {
	mu      sync.RWMutex
	updates map[string]Update
	heads   []string
}

func (c *Chain) Update(hash string) (Update, error) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	u, ok := c.updates[hash]
	if !ok {
		return Update{}, errors.New("no such update")
	}
	return u, nil
}

func (c *Chain) Heads() ([]Update, error) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	out := make([]Update, 0, len(c.heads))
	for _, h := range c.heads {
		u, err := c.Update(h) // want `c.mu is held for reading here and c.Update takes its read lock again`
		if err != nil {
			return nil, err
		}
		out = append(out, u)
	}
	return out, nil
}

func (c *Chain) Commit(updates []Update) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, u := range updates {
		c.updates[u.Hash] = u
		c.heads = append(c.heads, u.Hash)
	}
}

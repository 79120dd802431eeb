// Package mutexmapfix holds removals of per-key mutexes that can be
// dropped, and their fixed forms in fix.go.golden.
package mutexmapfix

import (
	"strconv"
	"sync"
)

type Controller struct {
	locks sync.Map // string -> *sync.Mutex
}

func (c *Controller) lock(key string) func() {
	v, _ := c.locks.LoadOrStore(key, new(sync.Mutex))
	mu := v.(*sync.Mutex)
	mu.Lock()
	return func() {
		mu.Unlock()
		c.locks.Delete(key) // want `per-key mutex removed from c.locks by Delete`
	}
}

func (c *Controller) Sync(key string, sync func()) {
	defer c.lock(key)()
	sync()
}

func (c *Controller) Forget(key string) {
	if v, ok := c.locks.LoadAndDelete(key); ok { // want `per-key mutex removed from c.locks by LoadAndDelete`
		_ = v
	}
}

func (c *Controller) Done(id int) {
	defer c.locks.Delete(strconv.Itoa(id)) // want `per-key mutex removed from c.locks by Delete`
	c.Sync(strconv.Itoa(id), func() {})
}

type Shards struct {
	mu    sync.Mutex
	locks map[int]*sync.Mutex
}

func (s *Shards) With(shard int, f func()) {
	s.mu.Lock()
	l := s.locks[shard]
	if l == nil {
		l = new(sync.Mutex)
		s.locks[shard] = l
	}
	s.mu.Unlock()
	l.Lock()
	f()
	l.Unlock()
	s.mu.Lock()
	delete(s.locks, shard) // want `per-key mutex removed from s.locks by delete`
	s.mu.Unlock()
}

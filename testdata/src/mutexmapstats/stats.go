// Package mutexmapstats holds a sync.Map of entries whose locks their
// users take (here through a helper given the lock): replacing an entry
// is mutexmapdelete's finding, and staleguard leaves the line to it, so
// it is reported once.
package mutexmapstats

import (
	"container/list"
	"sync"
)

type item struct {
	samplesMu sync.Mutex
	samples   *list.List
}

type Stats struct {
	items sync.Map // string -> *item
}

func (s *Stats) get(key string) *item {
	if v, ok := s.items.Load(key); ok {
		return v.(*item)
	}
	it := &item{samples: list.New()}
	s.items.Store(key, it) // want `entry in s.items replaced by Store`
	return it
}

func (s *Stats) Sample(key string, v int) {
	it := s.get(key)
	push(&it.samplesMu, it.samples, v)
}

func push(mu *sync.Mutex, l *list.List, v int) {
	mu.Lock()
	defer mu.Unlock()
	l.PushBack(v)
}

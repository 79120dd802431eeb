package lazyinit

import (
	"strings"
	"sync"
)

// Orphans returns the names no shard holds. Both lists are sorted, and
// shards are scanned concurrently, each with a cursor of its own into the
// names, crossing out the ones it finds (an empty name sorts first, so
// the cursors still work). Every store into the slice in the call stores
// that empty name, and the lock is the call's own, so no one else can
// write the slice between the sections: a stale find crosses out a name
// that is crossed out already.
func Orphans(names []string, shards [][]string) []string {
	var mu sync.RWMutex
	var wg sync.WaitGroup
	for _, shard := range shards {
		wg.Add(1)
		go func() {
			defer wg.Done()
			j := 0
			for k := 0; k < len(shard); k++ {
				if j >= len(names) {
					return
				}
				key := strings.ToLower(shard[k])
				found := func() bool {
					mu.RLock()
					defer mu.RUnlock()
					for j < len(names) && names[j] < key {
						j++
					}
					return j < len(names) && names[j] == key
				}()
				if found {
					mu.Lock()
					names[j] = ""
					mu.Unlock()
					j++
				}
			}
		}()
	}
	wg.Wait()
	var out []string
	for i, name := range names {
		if name != "" {
			out = append(out, name)
			names[i] = ""
		}
	}
	return out
}

type roster struct {
	mu sync.RWMutex
}

// Orphans is the near twin under the roster's lock: others may take it
// and store other names into the same slice between the sections.
func (r *roster) Orphans(names []string, shards [][]string) {
	var wg sync.WaitGroup
	for _, shard := range shards {
		wg.Add(1)
		go func() {
			defer wg.Done()
			j := 0
			for k := 0; k < len(shard); k++ {
				if j >= len(names) {
					return
				}
				key := strings.ToLower(shard[k])
				found := func() bool {
					r.mu.RLock()
					defer r.mu.RUnlock()
					for j < len(names) && names[j] < key {
						j++
					}
					return j < len(names) && names[j] == key
				}()
				if found {
					r.mu.Lock() // want `r.mu is locked again for writing after RUnlock: the write is decided by`
					names[j] = ""
					r.mu.Unlock()
					j++
				}
			}
		}()
	}
	wg.Wait()
}

package lazyinitfix

import "sync"

// A collector of the tags seen in a page, keyed by the tag's bytes as a
// string: the conversion reads the buffer again at the re-check, and
// calls nothing.
type Tags struct {
	mu   sync.RWMutex
	seen map[string]bool
	list []string
}

func (t *Tags) Collect(tag []byte) bool {
	t.mu.RLock()
	seen := t.seen[string(tag)]
	t.mu.RUnlock()
	if seen {
		return false
	}
	name := string(tag)
	t.mu.Lock() // want `t.mu is locked again for writing after RUnlock: the write is decided by seen`
	t.seen[name] = true
	t.list = append(t.list, name)
	t.mu.Unlock()
	return true
}

package mutexmapfix

import "strconv"

// Drop's delete is the only use of its key: removing the statement would
// leave key unused, so no fix is offered (this file has no golden: it must
// come out of the fixes unchanged).
func (s *Shards) Drop(name string) {
	key, _ := strconv.Atoi(name)
	s.mu.Lock()
	delete(s.locks, key) // want `per-key mutex removed from s.locks by delete`
	s.mu.Unlock()
}

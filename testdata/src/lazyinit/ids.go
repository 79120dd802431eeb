package lazyinit

import (
	"math/rand"
	"sync"
)

// Users get a random token on first use. Two first uses that both miss
// draw two tokens: the first caller hands out a token the table no
// longer holds, and every later lookup answers the second.
type tokens struct {
	mu  sync.RWMutex
	ids map[string]int64
}

func (t *tokens) token(user string) int64 {
	t.mu.RLock()
	id, ok := t.ids[user]
	t.mu.RUnlock()
	if ok {
		return id
	}
	id = rand.Int63()
	t.mu.Lock() // want `t.mu is locked again for writing after RUnlock`
	t.ids[user] = id
	t.mu.Unlock()
	return id
}

// width memoises a value computed from the key alone: racers store the
// same number (silent).
func (t *tokens) width(user string) int64 {
	t.mu.RLock()
	n, ok := t.ids[user]
	t.mu.RUnlock()
	if ok {
		return n
	}
	n = int64(len(user))
	t.mu.Lock()
	t.ids[user] = n
	t.mu.Unlock()
	return n
}

package lazyinitfix

import (
	"sync"
	"sync/atomic"
)

// Where the early return cannot be repeated under the write lock (the
// miss is handled inside the branch, and the value used after it), the
// store keeps what a racer stored since and the caller goes on with it.

type Pattern struct{ src string }

func (p *Pattern) Match(s string) bool { return p.src == s }

var (
	patternsMu sync.RWMutex
	patterns   = map[string]*Pattern{}
)

// Match fills the cache inside the branch that missed and uses the
// pattern after it.
func Match(src, s string) bool {
	patternsMu.RLock()
	p, ok := patterns[src]
	patternsMu.RUnlock()
	if !ok {
		p = &Pattern{src: src}
		patternsMu.Lock() // want `patternsMu is locked again for writing after RUnlock: p was missing`
		patterns[src] = p
		patternsMu.Unlock()
	}
	return p.Match(s)
}

type indexSet struct{ user string }

func openIndexSet(user string) (*indexSet, error) { return &indexSet{user: user}, nil }

// Indexes makes sure a user's index set exists. The function leaves with
// nil whether it found the set or made it, so keeping the set a racer
// made and leaving is what a hit does (the lookup itself is not repeated:
// a hit also counts itself on the way out).
type Indexes struct {
	mu      sync.RWMutex
	byUser  map[string]*indexSet
	pending map[string]bool
	hits    atomic.Int64
}

func (x *Indexes) Ensure(user string) error {
	x.mu.RLock()
	_, ok := x.byUser[user]
	x.mu.RUnlock()
	if ok {
		x.hits.Add(1)
		return nil
	}
	waiting, ok := x.pending[user]
	set, err := openIndexSet(user)
	if err != nil || ok && waiting {
		return err
	}
	x.mu.Lock() // want `x.mu is locked again for writing after RUnlock: x.byUser\[user\] was missing`
	defer x.mu.Unlock()
	x.byUser[user] = set
	return nil
}

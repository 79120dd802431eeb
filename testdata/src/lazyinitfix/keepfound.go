package lazyinitfix

import "sync"

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

package helpers

import "sync"

// A grant table whose lookups hand back only whether a bucket has a
// grant. A handler that finds one calls a refresh that, on a miss in its
// own cache, reloads the bucket's settings and drops the grant when the
// settings no longer carry one. "It is there, so remove it" stays right
// if the grant went away or was replaced in between: removing again, or
// removing the new one, is what a fresh test would lead to.
type grant struct {
	actions []string
	active  bool
}

type grants struct {
	mu     sync.RWMutex
	byName map[string]*grant
}

func (g *grants) has(bucket string) bool {
	g.mu.RLock()
	defer g.mu.RUnlock()
	_, ok := g.byName[bucket]
	return ok
}

// hasGrant wraps has, as a facade over the table would.
func (g *grants) hasGrant(bucket string) bool { return g.has(bucket) }

func (g *grants) drop(bucket string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	delete(g.byName, bucket)
}

type settings struct{ granted bool }

type gateway struct {
	grants *grants
	load   func(bucket string) (settings, error)
}

func (gw *gateway) refresh(bucket string) {
	s, err := gw.load(bucket)
	if err != nil || s.granted {
		return
	}
	gw.grants.drop(bucket)
}

func (gw *gateway) Authorize(bucket string) {
	if !gw.grants.hasGrant(bucket) {
		return
	}
	gw.refresh(bucket)
}

// active hands back what the grant says, not whether it is there: a grant
// switched on in between is dropped on the strength of the old answer.
func (g *grants) active(bucket string) bool {
	g.mu.RLock()
	defer g.mu.RUnlock()
	e, ok := g.byName[bucket]
	return ok && e.active
}

func (gw *gateway) Expire(bucket string) {
	if gw.grants.active(bucket) {
		return
	}
	gw.refresh(bucket) // want `gw.grants.mu is locked again for writing by gw.refresh after RUnlock`
}

package syncmapfix

import (
	"sync"
	"time"
)

// Grants keeps access grants by ID; a grant found expired is deleted, and
// the fix deletes only the grant found, so one issued again in between
// stays.
type Grants struct {
	byID    sync.Map // string -> *grant
	revoked func(id string)
}

type grant struct{ expires time.Time }

func (g *Grants) Issue(id string, ttl time.Duration) {
	g.byID.Store(id, &grant{expires: time.Now().Add(ttl)})
}

func (g *Grants) Reap(id string, now time.Time) {
	v, ok := g.byID.Load(id)
	if !ok || !v.(*grant).expires.Before(now) {
		return
	}
	g.revoked(id)
	g.byID.Delete(id) // want `g.byID.Delete is decided by g.byID.Load, read by an earlier call, and the entry may have been replaced since`
}

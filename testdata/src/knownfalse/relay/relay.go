// Package relay grants permissions per peer address. Permit checks and
// adds in two sections of a.mu: known false in its program, where Permit
// runs only on the read loop of the one connection an allocation
// belongs to, and the permission timers only delete (which goroutine
// runs what, per key; a delete cannot make "missing" stale).
package relay

import (
	"sync"
	"time"
)

type Permission struct {
	Peer  string
	owner *Allocation
	timer *time.Timer
}

func (p *Permission) start(ttl time.Duration) {
	p.timer = time.AfterFunc(ttl, func() { p.owner.revoke(p.Peer) })
}

func (p *Permission) refresh(ttl time.Duration) { p.timer.Reset(ttl) }

type Allocation struct {
	mu    sync.RWMutex
	perms map[string]*Permission
}

func (a *Allocation) Permit(p *Permission, ttl time.Duration) {
	a.mu.RLock()
	existing, ok := a.perms[p.Peer]
	a.mu.RUnlock()
	if ok {
		existing.refresh(ttl)
		return
	}
	p.owner = a
	a.mu.Lock() // want `a.mu is locked again for writing after RUnlock: existing was missing under the read lock`
	a.perms[p.Peer] = p
	a.mu.Unlock()
	p.start(ttl)
}

func (a *Allocation) revoke(peer string) {
	a.mu.Lock()
	delete(a.perms, peer)
	a.mu.Unlock()
}

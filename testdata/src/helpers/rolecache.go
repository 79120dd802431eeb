package helpers

import (
	"sync"

	cache "github.com/patrickmn/go-cache"
)

// Auth backends that keep roles in a cache with its own lock (another
// package's), loaded from storage on a miss while the backend's roleMu
// is held: every caller of roleLocked holds roleMu, and so does every
// writer of the role cache that stores, so the miss cannot go stale.
// Two writers of the same cache type take no roleMu and do not count:
// one stores into another cache (user IDs), kept in another field of
// the backend; one flushes the role cache, which takes entries out and
// cannot put back one the lookup found missing. Silent. The twin has a
// Warm that stores roles without roleMu: reported.

type role struct{ name string }

type authBackend struct {
	roleMu  sync.Mutex
	roles   *cache.Cache
	userIDs *cache.Cache
	load    func(name string) *role
}

func (b *authBackend) roleLocked(name string) *role {
	if r, ok := b.roles.Get(name); ok {
		return r.(*role)
	}
	r := b.load(name)
	b.roles.Set(name, r)
	return r
}

func (b *authBackend) Role(name string) *role {
	b.roleMu.Lock()
	defer b.roleMu.Unlock()
	return b.roleLocked(name)
}

func (b *authBackend) SetRole(name string, r *role) {
	b.roleMu.Lock()
	defer b.roleMu.Unlock()
	b.roles.Set(name, r)
}

func (b *authBackend) DeleteRole(name string) {
	b.roleMu.Lock()
	defer b.roleMu.Unlock()
	b.roles.Delete(name)
}

// Invalidate runs when storage changed under the backend.
func (b *authBackend) Invalidate() { b.roles.Flush() }

func (b *authBackend) RememberUser(id, arn string) { b.userIDs.Set(id, arn) }

type pluginBackend struct {
	roleMu sync.Mutex
	roles  *cache.Cache
	load   func(name string) *role
}

func (b *pluginBackend) roleLocked(name string) *role {
	if r, ok := b.roles.Get(name); ok {
		return r.(*role)
	}
	r := b.load(name)
	b.roles.Set(name, r) // want `b.roles.mu is locked again for writing by b.roles.Set after RUnlock`
	return r
}

func (b *pluginBackend) Role(name string) *role {
	b.roleMu.Lock()
	defer b.roleMu.Unlock()
	return b.roleLocked(name)
}

// Warm stores roles read ahead of time, without roleMu.
func (b *pluginBackend) Warm(rs []*role) {
	for _, r := range rs {
		b.roles.Set(r.name, r)
	}
}

// Package mutexmapwrap holds a typed wrapper over sync.Map, as packages
// define them, used once as a map of locks and once as a plain cache.
package mutexmapwrap

import "sync"

// TypedMap is a thin typed front for sync.Map.
type TypedMap[K comparable, V any] struct {
	m sync.Map
}

func (t *TypedMap[K, V]) LoadOrStore(k K, v V) (V, bool) {
	a, loaded := t.m.LoadOrStore(k, v)
	return a.(V), loaded
}

func (t *TypedMap[K, V]) Load(k K) (V, bool) {
	a, ok := t.m.Load(k)
	if !ok {
		var zero V
		return zero, false
	}
	return a.(V), true
}

func (t *TypedMap[K, V]) Delete(k K) { t.m.Delete(k) }

// Builds serialises builds per repository; finishing a build forgets the
// repository's mutex while another build may be waiting on it.
type Builds struct {
	locks TypedMap[string, *sync.Mutex]
}

func (b *Builds) Build(repo string, build func()) {
	mu, _ := b.locks.LoadOrStore(repo, new(sync.Mutex))
	mu.Lock()
	build()
	mu.Unlock()
	b.locks.Delete(repo) // want `per-key mutex removed from b.locks by Delete`
}

// Artifacts caches build outputs in the same wrapper: deletes are fine.
type Artifacts struct {
	byRepo TypedMap[string, []byte]
}

func (a *Artifacts) Put(repo string, out []byte) { a.byRepo.LoadOrStore(repo, out) }

func (a *Artifacts) Invalidate(repo string) { a.byRepo.Delete(repo) }

// Deploys keeps its per-environment mutexes for good.
type Deploys struct {
	locks TypedMap[string, *sync.RWMutex]
}

func (d *Deploys) Deploy(env string, deploy func()) {
	mu, _ := d.locks.LoadOrStore(env, new(sync.RWMutex))
	mu.Lock()
	defer mu.Unlock()
	deploy()
}

func (d *Deploys) Status(env string) bool {
	mu, ok := d.locks.Load(env)
	if !ok {
		return false
	}
	mu.RLock()
	defer mu.RUnlock()
	return true
}

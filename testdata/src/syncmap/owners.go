package syncmap

import (
	"sync"
	"time"
)

// Routes is filled by one worker goroutine, started once, that alone
// stores and deletes; readers only Load. Its Load-then-Store cannot lose
// anyone's update: silent.
type Routes struct {
	table   sync.Map // string -> string
	updates chan [2]string
}

func NewRoutes() *Routes {
	r := &Routes{updates: make(chan [2]string)}
	go r.apply()
	return r
}

func (r *Routes) apply() {
	for u := range r.updates {
		if old, ok := r.table.Load(u[0]); ok && old == u[1] {
			continue
		}
		r.table.Store(u[0], u[1])
	}
}

func (r *Routes) Lookup(dst string) (string, bool) {
	v, ok := r.table.Load(dst)
	if !ok {
		return "", false
	}
	return v.(string), true
}

// Mirror copies from one map into another: the Load and the Store are on
// different maps, and nothing is decided about the map written: silent.
type Mirror struct {
	primary sync.Map
	replica sync.Map
}

func (m *Mirror) Sync(k string) {
	if v, ok := m.primary.Load(k); ok {
		m.replica.Store(k, v)
	}
}

// Leases drops an expired lease with CompareAndDelete, which removes
// only the entry it saw: silent.
type Leases struct {
	byName sync.Map // string -> *lease
}

type lease struct{ expires time.Time }

func (l *Leases) Expire(name string, now time.Time) {
	if v, ok := l.byName.Load(name); ok && v.(*lease).expires.Before(now) {
		l.byName.CompareAndDelete(name, v)
	}
}

// Sweep deletes, one by one, the expired entries Range visits: a racer's
// fresh lease stored meanwhile under the same name is a new entry the
// sweep did not see, but the sweep is the idiom; silent.
func (l *Leases) Sweep(now time.Time) {
	l.byName.Range(func(k, v any) bool {
		if v.(*lease).expires.Before(now) {
			l.byName.Delete(k)
		}
		return true
	})
}

// Indexed is filled while its constructor still holds the only
// reference: silent.
type Indexed struct {
	byKey sync.Map
}

func NewIndexed(keys []string) *Indexed {
	x := &Indexed{}
	for i, k := range keys {
		if _, ok := x.byKey.Load(k); !ok {
			x.byKey.Store(k, i)
		}
	}
	return x
}

package syncmap

import (
	"sync"
	"time"
)

// ResourceLeases hands out a lease per resource and hands out a new one once the
// old one has expired: two callers that both find it expired both make one,
// and the second replaces the first, whose holder goes on believing it
// holds the resource. Reported, as missing or stale.
type ResourceLeases struct {
	byResource sync.Map // string -> *resourceLease
}

type resourceLease struct {
	holder  string
	expires time.Time
	renewed chan struct{}
}

func (l *ResourceLeases) Acquire(resource, holder string) *resourceLease {
	if v, ok := l.byResource.Load(resource); ok && time.Now().Before(v.(*resourceLease).expires) {
		return v.(*resourceLease)
	}
	ls := &resourceLease{holder: holder, expires: time.Now().Add(time.Minute), renewed: make(chan struct{})}
	l.byResource.Store(resource, ls) // want `l.byResource.Store stores what l.byResource.Load found missing or stale, but another goroutine may have stored an entry since`
	return ls
}

// AcquireSwapped replaces only the expired resourceLease it saw, and only stores
// where nothing is: silent.
func (l *ResourceLeases) AcquireSwapped(resource, holder string) *resourceLease {
	ls := &resourceLease{holder: holder, expires: time.Now().Add(time.Minute), renewed: make(chan struct{})}
	for {
		v, loaded := l.byResource.LoadOrStore(resource, ls)
		if !loaded {
			return ls
		}
		old := v.(*resourceLease)
		if time.Now().Before(old.expires) {
			return old
		}
		if l.byResource.CompareAndSwap(resource, old, ls) {
			return ls
		}
	}
}

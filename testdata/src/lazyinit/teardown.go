package lazyinit

import (
	"errors"
	"sync"
)

// A re-check in the second section that gives up when the entry is gone
// drops an update only if the read path, finding the entry missing, would
// have created it. A write made only where a test in its own section found
// the entry there (tearing down the link it holds, releasing the waiters
// of an entry) rewrites what exists: it is no such creation, even when the
// missing side of the first test runs into it.

type uplink struct {
	mu     sync.Mutex
	broken bool
	routes []string
}

func (l *uplink) ping() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.broken {
		return errors.New("broken")
	}
	return nil
}

// shutdown changes the link itself: it marks it broken and forgets its
// routes.
func (l *uplink) shutdown() {
	l.mu.Lock()
	l.broken = true
	l.routes = nil
	l.mu.Unlock()
}

type gateway struct {
	mu   sync.RWMutex
	link *uplink
	dial func() *uplink
}

func (g *gateway) drop() {
	g.link.shutdown()
	g.link = nil
}

// Healthy keeps a working link and throws out a broken one; a new link is
// dialled on a goroutine of its own. Neither section creates the link
// here, so the second giving up when the link is gone is what the first
// would have done.
func (g *gateway) Healthy() bool {
	g.mu.RLock()
	l := g.link
	g.mu.RUnlock()
	if l != nil && l.ping() == nil {
		return true
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.link != nil && g.link.ping() != nil {
		g.drop()
	}
	go g.redial()
	return false
}

func (g *gateway) redial() {
	l := g.dial()
	g.mu.Lock()
	if g.link == nil {
		g.link = l
	}
	g.mu.Unlock()
}

// AddRoute is the near twin: the first section, finding no link, makes
// one; the second, finding it gone, gives up and the route is lost.
func (g *gateway) AddRoute(r string) {
	g.mu.RLock()
	l := g.link
	g.mu.RUnlock()
	if l == nil {
		g.mu.Lock()
		g.link = &uplink{routes: []string{r}}
		g.mu.Unlock()
		return
	}
	g.mu.Lock() // want `g.mu is locked again for writing after RUnlock: l was present under the read lock; if it is removed before the lock is taken again, the re-check there gives up quietly and the update is lost`
	defer g.mu.Unlock()
	if g.link != nil {
		g.link.routes = append(g.link.routes, r)
	}
}

type watch struct {
	ready  chan struct{}
	gen    uint64
	counts int
}

type watcher struct {
	mu      sync.RWMutex
	watches map[string]watch
	pending map[string]bool
}

// Abandon waits for a watch being set up; when it takes too long it
// releases the waiters itself, if the watch is still there. The only
// store of the entry on the way is that release, made where the second
// section found the entry: it cannot bring back a watch that is gone.
func (w *watcher) Abandon(key string, expired <-chan struct{}) {
	w.mu.RLock()
	cur, ok := w.watches[key]
	queued := w.pending[key]
	w.mu.RUnlock()
	if !ok && !queued {
		return
	}
	if ok && cur.ready != nil {
		select {
		case <-cur.ready:
		case <-expired:
			w.mu.Lock()
			now, ok := w.watches[key]
			if ok && now.ready != nil {
				close(now.ready)
				now.ready = nil
				w.watches[key] = now
			}
			w.mu.Unlock()
		}
	}
}

// Count is its near twin: a missing watch is created on the way, so a
// second section that skips the count when the watch has gone loses it.
func (w *watcher) Count(key string) {
	w.mu.RLock()
	_, ok := w.watches[key]
	w.mu.RUnlock()
	if !ok {
		w.mu.Lock()
		w.watches[key] = watch{counts: 1}
		w.mu.Unlock()
		return
	}
	w.mu.Lock() // want `w.mu is locked again for writing after RUnlock: w.watches\[key\] was present under the read lock; if it is removed before the lock is taken again, the re-check there gives up quietly and the update is lost`
	now, ok := w.watches[key]
	if ok {
		now.counts++
		w.watches[key] = now
	}
	w.mu.Unlock()
}

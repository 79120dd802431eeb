package lazyinit

import "sync"

// A broadcast made lazily: the first waiter makes the channel, and
// Publish closes it to wake every waiter. A waiter that makes it after
// finding none under the read lock, without looking again under the
// write lock, can replace the channel another waiter is already
// blocked on; Publish then closes only the new one.

type Rollout struct {
	mu    sync.RWMutex
	ready chan struct{}
}

func (r *Rollout) Ready() <-chan struct{} {
	r.mu.RLock()
	ch := r.ready
	r.mu.RUnlock()
	if ch == nil {
		r.mu.Lock() // want `r.mu is locked again for writing after RUnlock: ch was missing under the read lock`
		r.ready = make(chan struct{})
		ch = r.ready
		r.mu.Unlock()
	}
	return ch
}

func (r *Rollout) Publish() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ready != nil {
		close(r.ready)
		r.ready = nil
	}
}

// Hub makes its table of subscribers lazily, and the same race drops a
// subscriber: one added to the table a racer made is lost when the
// racer's fill replaces it.
type Hub struct {
	mu   sync.RWMutex
	subs map[string]chan string
}

func (h *Hub) Subscribe(topic string) <-chan string {
	h.mu.RLock()
	subs := h.subs
	h.mu.RUnlock()
	if subs == nil {
		h.mu.Lock() // want `h.mu is locked again for writing after RUnlock: subs was missing under the read lock`
		h.subs = make(map[string]chan string)
		h.mu.Unlock()
	}
	ch := make(chan string, 1)
	h.mu.Lock()
	h.subs[topic] = ch
	h.mu.Unlock()
	return ch
}

// Board makes its table the double-checked way: silent.
type Board struct {
	mu   sync.RWMutex
	subs map[string]chan string
}

func (b *Board) Subscribe(topic string) <-chan string {
	b.mu.RLock()
	subs := b.subs
	b.mu.RUnlock()
	ch := make(chan string, 1)
	b.mu.Lock()
	defer b.mu.Unlock()
	if subs == nil && b.subs == nil {
		b.subs = make(map[string]chan string)
	}
	b.subs[topic] = ch
	return ch
}

// Drain has the double-checked form: silent.
type Drain struct {
	mu   sync.RWMutex
	done chan struct{}
}

func (d *Drain) Done() <-chan struct{} {
	d.mu.RLock()
	ch := d.done
	d.mu.RUnlock()
	if ch != nil {
		return ch
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.done == nil {
		d.done = make(chan struct{})
	}
	return d.done
}

func (d *Drain) Finish() {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.done != nil {
		close(d.done)
	}
}

// Budget keeps a limit computed under the write lock: a racer's value is
// replaced by an equal one, and no one holds on to it (Allow looks it up
// each time). Silent.
type Budget struct {
	mu     sync.RWMutex
	limits map[string]*limit
}

type limit struct{ perSecond, burst int }

func (b *Budget) Observe(tenant string, quota int) {
	b.mu.RLock()
	l := b.limits[tenant]
	b.mu.RUnlock()
	if l == nil {
		b.mu.Lock()
		b.limits[tenant] = &limit{perSecond: quota, burst: 2 * quota}
		b.mu.Unlock()
	}
}

func (b *Budget) Allow(tenant string, used int) bool {
	b.mu.RLock()
	defer b.mu.RUnlock()
	l := b.limits[tenant]
	return l == nil || used < l.burst
}

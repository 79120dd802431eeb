package syncmap

import "sync"

// Registry asks a helper whether a name is taken, then stores: the helper
// answers from an earlier call on the map. Reported.
type Registry struct {
	byName sync.Map // string -> *service
}

type service struct {
	addr  string
	stop  chan struct{}
	conns map[string]int
}

func (r *Registry) taken(name string) bool {
	_, ok := r.byName.Load(name)
	return ok
}

func (r *Registry) Register(name, addr string) bool {
	if r.taken(name) {
		return false
	}
	r.byName.Store(name, &service{addr: addr, stop: make(chan struct{})}) // want `r.byName.Store is decided by r.taken, read by an earlier call, which may be stale`
	return true
}

// Claimed takes the entry out with LoadAndDelete, works on it, and puts
// it back: whoever comes in between finds nothing to take. Silent.
type Claimed struct {
	idle sync.Map // string -> *service
}

func (c *Claimed) Use(name string, work func(*service)) bool {
	v, ok := c.idle.LoadAndDelete(name)
	if !ok {
		return false
	}
	s := v.(*service)
	work(s)
	c.idle.Store(name, s)
	return true
}

// Reserved puts a placeholder in with LoadOrStore, builds the service,
// then stores it over its own placeholder. Silent.
type Reserved struct {
	byName sync.Map // string -> *service
}

func (r *Reserved) Start(name, addr string) bool {
	placeholder := &service{}
	if _, loaded := r.byName.LoadOrStore(name, placeholder); loaded {
		return false
	}
	r.byName.Store(name, &service{addr: addr, stop: make(chan struct{})})
	return true
}

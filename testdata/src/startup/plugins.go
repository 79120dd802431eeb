package startup

import (
	"fmt"
	"iter"
	"sync"
)

// A plugin host is built by its constructor: it loads every plugin,
// indexes it by kind, and only then hands the host out. The host's own
// closures (the dispatch hook it keeps, the loop bodies of range-over-func
// loops) capture the variable holding it; that variable is not a way out
// while the closures stay in the host or run in place.

type plugin struct {
	kind string
}

type pluginHost struct {
	mu       sync.RWMutex
	byKind   map[string]*plugin
	dispatch func(string)
	jobs     chan string
}

func (h *pluginHost) lookup(kind string) (*plugin, bool) {
	h.mu.RLock()
	defer h.mu.RUnlock()
	p, ok := h.byKind[kind]
	return p, ok
}

func (h *pluginHost) register(p *plugin) {
	h.mu.Lock()
	h.byKind[p.kind] = p
	h.mu.Unlock()
}

// hostHooks are called by other goroutines once set.
var hostHooks []func(string)

// newPluginHost fills the host it has just made; the dispatch closure it
// keeps in the host and the loop body over the iterator both capture h,
// but no other goroutine can reach h before the return. Silent.
func newPluginHost(all iter.Seq[*plugin]) *pluginHost {
	h := &pluginHost{byKind: map[string]*plugin{}, jobs: make(chan string, 1)}
	h.dispatch = func(kind string) { h.jobs <- kind }
	for p := range all {
		if _, ok := h.lookup(p.kind); !ok {
			h.register(p)
		}
	}
	return h
}

// newIndexedHost is the same with a plain loop over a slice: the gap is in
// the constructor itself, on the captured variable. Silent.
func newIndexedHost(list []*plugin) *pluginHost {
	h := &pluginHost{byKind: map[string]*plugin{}}
	h.dispatch = func(kind string) { h.jobs <- kind }
	for _, p := range list {
		if _, ok := h.lookup(p.kind); !ok {
			h.register(p)
		}
	}
	return h
}

// newHookedHost hands its dispatch closure, and so h, to the hooks before
// the loop: a hook running on another goroutine can reach the host in the
// gap. Reported.
func newHookedHost(all iter.Seq[*plugin]) *pluginHost {
	h := &pluginHost{byKind: map[string]*plugin{}, jobs: make(chan string, 1)}
	h.dispatch = func(kind string) { h.register(&plugin{kind: kind}) }
	hostHooks = append(hostHooks, h.dispatch)
	for p := range all {
		if _, ok := h.lookup(p.kind); !ok {
			h.register(p) // want `h.mu is locked again for writing by h.register after RUnlock`
		}
	}
	return h
}

// newStartedHost starts a goroutine on its closure before filling the
// host. Reported.
func newStartedHost(list []*plugin) *pluginHost {
	h := &pluginHost{byKind: map[string]*plugin{}, jobs: make(chan string, 1)}
	go func() {
		for kind := range h.jobs {
			h.register(&plugin{kind: kind})
		}
	}()
	for _, p := range list {
		if _, ok := h.lookup(p.kind); !ok {
			h.register(p) // want `h.mu is locked again for writing by h.register after RUnlock`
		}
	}
	return h
}

// reuseHost fills a host its variable was later pointed at again: the
// variable holds two objects in turn, the first one handed in. Reported.
func reuseHost(shared *pluginHost, list []*plugin) *pluginHost {
	h := &pluginHost{byKind: map[string]*plugin{}}
	defer func() { h.dispatch = nil }()
	h = shared
	for _, p := range list {
		if _, ok := h.lookup(p.kind); !ok {
			h.register(p) // want `h.mu is locked again for writing by h.register after RUnlock`
		}
	}
	return h
}

var liveHosts []*pluginHost

// newAnnouncedHost lets a function literal, run in place before the loop,
// add the host to a list other goroutines read. Reported.
func newAnnouncedHost(list []*plugin) *pluginHost {
	h := &pluginHost{byKind: map[string]*plugin{}}
	h.dispatch = func(kind string) { h.jobs <- kind }
	func() {
		liveHosts = append(liveHosts, h)
	}()
	for _, p := range list {
		if _, ok := h.lookup(p.kind); !ok {
			h.register(p) // want `h.mu is locked again for writing by h.register after RUnlock`
		}
	}
	return h
}

var sharedHost = &pluginHost{byKind: map[string]*plugin{}}

type pluginSet struct {
	host *pluginHost
	name string
}

// newPluginSet makes a set that points at the shared host and fills the
// host through it: the set is new, the host and its lock are not.
// Reported.
func newPluginSet(list []*plugin) *pluginSet {
	s := &pluginSet{host: sharedHost}
	for _, p := range list {
		if _, ok := s.host.lookup(p.kind); !ok {
			s.host.register(p) // want `s.host.mu is locked again for writing by s.host.register after RUnlock`
		}
	}
	return s
}

// newHookedSet is the same with the set kept in a variable a closure
// captures. Reported.
func newHookedSet(list []*plugin) *pluginSet {
	s := &pluginSet{host: sharedHost}
	describe := func() string { return s.name }
	for _, p := range list {
		if _, ok := s.host.lookup(p.kind); !ok {
			s.host.register(p) // want `s.host.mu is locked again for writing by s.host.register after RUnlock`
		}
	}
	s.name = describe()
	return s
}

// kindCache is kept by value in a registry; its refresher runs on a
// goroutine of its own once started.
type kindCache struct {
	mu    sync.RWMutex
	kinds map[string]*plugin
	tick  chan string
}

func (c *kindCache) get(kind string) *plugin {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.kinds[kind]
}

func (c *kindCache) add(kind string) {
	c.mu.Lock()
	c.kinds[kind] = &plugin{kind: kind}
	c.mu.Unlock()
}

func (c *kindCache) reset() {
	c.mu.Lock()
	c.kinds = map[string]*plugin{}
	c.mu.Unlock()
}

func (c *kindCache) start() {
	go func() {
		for k := range c.tick {
			c.add(k)
		}
	}()
}

type kindRegistry struct {
	cache kindCache
	name  func() string
}

// newKindRegistry resets its new cache (a method that keeps it to
// itself) before filling it. Silent.
func newKindRegistry(kinds []string) *kindRegistry {
	r := &kindRegistry{}
	r.name = func() string { return fmt.Sprint(len(r.cache.kinds)) }
	r.cache.reset()
	for _, k := range kinds {
		if r.cache.get(k) == nil {
			r.cache.add(k)
		}
	}
	return r
}

// newLiveKindRegistry starts the cache's refresher first: a goroutine
// has the cache, and its lock, before the gap. Reported.
func newLiveKindRegistry(kinds []string) *kindRegistry {
	r := &kindRegistry{cache: kindCache{tick: make(chan string)}}
	r.name = func() string { return fmt.Sprint(len(r.cache.kinds)) }
	r.cache.reset()
	r.cache.start()
	for _, k := range kinds {
		if r.cache.get(k) == nil {
			r.cache.add(k) // want `r.cache.mu is locked again for writing by r.cache.add after RUnlock`
		}
	}
	return r
}

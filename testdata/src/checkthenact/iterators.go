package checkthenact

import (
	"iter"
	"sync"
)

// Proxy handlers kept per backend, filled from a configuration that lists
// the backends through an iterator. go/ssa turns the body of a
// range-over-func loop into a function of its own; it still runs as the
// loop's code, with the locks its function holds.

type proxy struct{ backend string }

type Routing struct{ backends []string }

func (r *Routing) Backends() iter.Seq[string] {
	return func(yield func(string) bool) {
		for _, b := range r.backends {
			if !yield(b) {
				return
			}
		}
	}
}

type Gateway struct {
	mu      sync.Mutex // held by every caller of refreshLocked
	routing *Routing

	cacheMu sync.Mutex
	proxies map[string]*proxy
}

func (g *Gateway) proxyFor(backend string) *proxy {
	g.cacheMu.Lock()
	defer g.cacheMu.Unlock()
	return g.proxies[backend]
}

func (g *Gateway) keepProxy(backend string, p *proxy) {
	g.cacheMu.Lock()
	defer g.cacheMu.Unlock()
	g.proxies[backend] = p
}

// refreshLocked makes the proxies still missing. Its only caller holds
// g.mu, which serialises every refresh: silent.
func (g *Gateway) refreshLocked() {
	for backend := range g.routing.Backends() {
		if g.proxyFor(backend) != nil {
			continue
		}
		g.keepProxy(backend, &proxy{backend: backend})
	}
}

func (g *Gateway) Reconfigure(r *Routing) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.routing = r
	g.refreshLocked()
}

// WarmGateway adds Warm, which does the same without g.mu: two calls
// both find a backend missing and the second replaces the proxy the
// first made. And since Warm fills the map without g.mu, g.mu no longer
// keeps refreshLocked's two sections apart from every other fill: that
// is reported too.
type WarmGateway struct {
	mu      sync.Mutex
	routing *Routing

	cacheMu sync.Mutex
	proxies map[string]*proxy
}

func (g *WarmGateway) proxyFor(backend string) *proxy {
	g.cacheMu.Lock()
	defer g.cacheMu.Unlock()
	return g.proxies[backend]
}

func (g *WarmGateway) keepProxy(backend string, p *proxy) {
	g.cacheMu.Lock()
	defer g.cacheMu.Unlock()
	g.proxies[backend] = p
}

func (g *WarmGateway) refreshLocked() {
	for backend := range g.routing.Backends() {
		if g.proxyFor(backend) != nil {
			continue
		}
		g.keepProxy(backend, &proxy{backend: backend}) // want `g.cacheMu is locked again by g.keepProxy after the section that checked`
	}
}

func (g *WarmGateway) Reconfigure(r *Routing) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.routing = r
	g.refreshLocked()
}

func (g *WarmGateway) Warm() {
	for backend := range g.routing.Backends() {
		if g.proxyFor(backend) != nil {
			continue
		}
		g.keepProxy(backend, &proxy{backend: backend}) // want `g.cacheMu is locked again by g.keepProxy after the section that checked`
	}
}

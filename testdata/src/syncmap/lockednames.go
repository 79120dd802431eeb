package syncmap

import "sync"

type proxy struct{ target string }

// Gateway keeps a proxy per backend in a sync.Map, so request handlers
// can find one without taking mu. Reconfiguration runs with mu held;
// the package's feature hook calls it, so its calls are not all in view.
type Gateway struct {
	mu       sync.Mutex
	backends []string
	proxies  sync.Map // backend -> *proxy

	onConfig func(g *Gateway)
}

func NewGateway() *Gateway {
	g := &Gateway{}
	g.onConfig = (*Gateway).syncProxiesLocked
	return g
}

// syncProxiesLocked creates the missing proxies. Its name says the
// caller holds g.mu, and every change of the map is made here: two
// reconfigurations cannot interleave. Silent.
func (g *Gateway) syncProxiesLocked() {
	for _, b := range g.backends {
		if _, ok := g.proxies.Load(b); ok {
			continue
		}
		g.proxies.Store(b, &proxy{target: b})
	}
}

func (g *Gateway) Configure(backends []string) {
	g.mu.Lock()
	g.backends = backends
	g.onConfig(g)
	g.mu.Unlock()
}

// HookGateway fills its map from hooks that hold no lock.
type HookGateway struct {
	backends []string
	proxies  sync.Map // backend -> *proxy
}

// warm does the same from a hook without saying the lock is held: two
// warm-ups replace each other's proxies. Reported.
func (g *HookGateway) warm() {
	for _, b := range g.backends {
		if _, ok := g.proxies.Load(b); ok {
			continue
		}
		g.proxies.Store(b, &proxy{target: b}) // want `g.proxies.Store stores what g.proxies.Load found missing, but another goroutine may have stored an entry since`
	}
}

// reloadUnlocked is named for the opposite: it runs with no lock held.
// Reported.
func (g *HookGateway) reloadUnlocked(b string) {
	if _, ok := g.proxies.Load(b); ok {
		return
	}
	g.proxies.Store(b, &proxy{target: b}) // want `g.proxies.Store stores what g.proxies.Load found missing, but another goroutine may have stored an entry since`
}

func (g *HookGateway) Hooks() []func() {
	return []func(){g.warm, func() { g.reloadUnlocked("default") }}
}

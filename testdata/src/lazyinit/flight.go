package lazyinit

import (
	"sync"

	"golang.org/x/sync/singleflight"
)

type Conn struct{ addr string }

func dial(addr string) (*Conn, error) { return &Conn{addr: addr}, nil }

// Pool puts a singleflight group in front of a double-checked insert: the
// closure re-checks under the write lock.
type Pool struct {
	mu    sync.RWMutex
	conns map[string]*Conn
	group singleflight.Group
}

func (p *Pool) Conn(addr string) (*Conn, error) {
	p.mu.RLock()
	c := p.conns[addr]
	p.mu.RUnlock()
	if c != nil {
		return c, nil
	}
	v, err, _ := p.group.Do(addr, func() (any, error) {
		p.mu.Lock()
		defer p.mu.Unlock()
		if c := p.conns[addr]; c != nil {
			return c, nil
		}
		c, err := dial(addr)
		if err != nil {
			return nil, err
		}
		p.conns[addr] = c
		return c, nil
	})
	if err != nil {
		return nil, err
	}
	return v.(*Conn), nil
}

// Tunnel is opened once per peer and keeps its own routing table.
type Tunnel struct {
	peer   string
	routes map[string]string
}

// Tunnels opens tunnels through a singleflight group keyed by the peer:
// the check and the store run inside the group's call for that peer, and
// the group lets one call per peer run at a time. Silent.
type Tunnels struct {
	mu      sync.RWMutex
	tunnels map[string]*Tunnel
	group   singleflight.Group
}

func (t *Tunnels) Open(peer string) (*Tunnel, error) {
	v, err, _ := t.group.Do(peer, func() (any, error) {
		t.mu.RLock()
		tun, ok := t.tunnels[peer]
		t.mu.RUnlock()
		if ok {
			return tun, nil
		}
		tun = &Tunnel{peer: peer, routes: map[string]string{}}
		t.mu.Lock()
		t.tunnels[peer] = tun
		t.mu.Unlock()
		return tun, nil
	})
	if err != nil {
		return nil, err
	}
	return v.(*Tunnel), nil
}

// Retrier runs a function until it succeeds; it does not keep two calls
// apart.
type Retrier struct{ attempts int }

func (r *Retrier) Do(fn func() error) error {
	var err error
	for range r.attempts {
		if err = fn(); err == nil {
			return nil
		}
	}
	return err
}

// RetriedTunnels does the same inside a retry: two callers for one peer
// both find it missing, and the second tunnel replaces the first.
type RetriedTunnels struct {
	mu      sync.RWMutex
	tunnels map[string]*Tunnel
	retry   Retrier
}

func (t *RetriedTunnels) Open(peer string) (*Tunnel, error) {
	var tun *Tunnel
	err := t.retry.Do(func() error {
		t.mu.RLock()
		found, ok := t.tunnels[peer]
		t.mu.RUnlock()
		if ok {
			tun = found
			return nil
		}
		fresh := &Tunnel{peer: peer, routes: map[string]string{}}
		t.mu.Lock() // want `t.mu is locked again for writing after RUnlock: found was missing under the read lock`
		t.tunnels[peer] = fresh
		t.mu.Unlock()
		tun = fresh
		return nil
	})
	return tun, err
}

// HostCache puts the group before the lock: the store under the write
// lock is of the result the flight for that host handed every caller.
// Silent: the racers of one flight store the same address.
type HostCache struct {
	mu    sync.RWMutex
	addrs map[string]*Conn
	group singleflight.Group
}

func (r *HostCache) Resolve(host string) (*Conn, error) {
	r.mu.RLock()
	c, ok := r.addrs[host]
	r.mu.RUnlock()
	if ok {
		return c, nil
	}
	v, err, _ := r.group.Do(host, func() (any, error) { return dial(host) })
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	r.addrs[host] = v.(*Conn)
	r.mu.Unlock()
	return v.(*Conn), nil
}

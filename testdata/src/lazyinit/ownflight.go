package lazyinit

import "sync"

// SingleFlight is a home-grown singleflight: one call per key runs at a
// time; callers of the same key wait for it and share its result.
type SingleFlight interface {
	Do(key string, fn func() (any, error)) (any, error)
}

type flightCall struct {
	wg  sync.WaitGroup
	val any
	err error
}

type flightGroup struct {
	mu    sync.Mutex
	calls map[string]*flightCall
}

func NewSingleFlight() SingleFlight { return &flightGroup{calls: map[string]*flightCall{}} }

func (g *flightGroup) Do(key string, fn func() (any, error)) (any, error) {
	g.mu.Lock()
	if c, ok := g.calls[key]; ok {
		g.mu.Unlock()
		c.wg.Wait()
		return c.val, c.err
	}
	c := new(flightCall)
	c.wg.Add(1)
	g.calls[key] = c
	g.mu.Unlock()

	c.val, c.err = fn()
	c.wg.Done()

	g.mu.Lock()
	delete(g.calls, key)
	g.mu.Unlock()
	return c.val, c.err
}

// Backends dials each backend once, inside its own flight group: the
// table is written nowhere else, so no store can come between the miss
// and the store of one key. Silent.
type Backends struct {
	mu     sync.RWMutex
	conns  map[string]*Conn
	flight SingleFlight
}

func (b *Backends) Conn(addr string) (*Conn, error) {
	v, err := b.flight.Do(addr, func() (any, error) {
		b.mu.RLock()
		c, ok := b.conns[addr]
		b.mu.RUnlock()
		if ok {
			return c, nil
		}
		c, err := dial(addr)
		if err != nil {
			return nil, err
		}
		b.mu.Lock()
		b.conns[addr] = c
		b.mu.Unlock()
		return c, nil
	})
	if err != nil {
		return nil, err
	}
	return v.(*Conn), nil
}

// Mirrors fills the same way, but Set writes the table outside any
// flight: a Set between the miss and the store is overwritten by the
// flight's dial. Only x/sync's Group is taken on trust.
type Mirrors struct {
	mu     sync.RWMutex
	conns  map[string]*Conn
	flight SingleFlight
}

func (m *Mirrors) Conn(addr string) (*Conn, error) {
	v, err := m.flight.Do(addr, func() (any, error) {
		m.mu.RLock()
		c, ok := m.conns[addr]
		m.mu.RUnlock()
		if ok {
			return c, nil
		}
		c, err := dial(addr)
		if err != nil {
			return nil, err
		}
		m.mu.Lock() // want `m.mu is locked again for writing after RUnlock: c was missing under the read lock`
		m.conns[addr] = c
		m.mu.Unlock()
		return c, nil
	})
	if err != nil {
		return nil, err
	}
	return v.(*Conn), nil
}

func (m *Mirrors) Set(addr string, c *Conn) {
	m.mu.Lock()
	m.conns[addr] = c
	m.mu.Unlock()
}

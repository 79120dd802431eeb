package workers

import "sync"

// A listener's read loop, one goroutine started by Listen, is the only
// one that adds connections: a packet from an unknown address gets a new
// connection, found missing under the read lock and stored under the
// write lock. Closing a connection, on any goroutine, only deletes its
// entry, which cannot make "missing" stale: silent. In PushDemux a
// caller's Push also adds connections, beside the loop: reported.

type conn struct {
	addr string
	in   chan string
}

func dial(addr string) *conn { return &conn{addr: addr, in: make(chan string, 8)} }

type Demux struct {
	mu      sync.RWMutex
	conns   map[string]*conn
	packets chan string
}

func (l *Demux) Listen() {
	go l.readLoop()
}

func (l *Demux) readLoop() {
	for addr := range l.packets {
		l.mu.RLock()
		c, ok := l.conns[addr]
		l.mu.RUnlock()
		if ok {
			c.in <- addr
			continue
		}
		if addr == "" {
			l.renew(addr)
			continue
		}
		c = dial(addr)
		l.mu.Lock()
		l.conns[addr] = c
		l.mu.Unlock()
		c.in <- addr
	}
}

func (l *Demux) Close(addr string) {
	l.mu.Lock()
	delete(l.conns, addr)
	l.mu.Unlock()
}

type PushDemux struct {
	mu      sync.RWMutex
	conns   map[string]*conn
	packets chan string
}

func (l *PushDemux) Listen() {
	go l.readLoop()
}

func (l *PushDemux) readLoop() {
	for addr := range l.packets {
		l.mu.RLock()
		c, ok := l.conns[addr]
		l.mu.RUnlock()
		if ok {
			c.in <- addr
			continue
		}
		c = dial(addr)
		l.mu.Lock() // want `l.mu is locked again for writing after RUnlock: c was missing under the read lock`
		l.conns[addr] = c
		l.mu.Unlock()
		c.in <- addr
	}
}

func (l *PushDemux) Push(addr string) {
	l.mu.Lock()
	l.conns[addr] = dial(addr)
	l.mu.Unlock()
}

func (l *PushDemux) Close(addr string) {
	l.mu.Lock()
	delete(l.conns, addr)
	l.mu.Unlock()
}

// renew is the loop's own presence decision on Demux (it runs on the
// loop, for a control packet): it found the connection there and stores
// a successor built from it. A Close in the gap deletes the entry, and
// the store brings the closed connection back. Removers only excuse
// decisions that something was missing: reported.
func (l *Demux) renew(addr string) {
	l.mu.RLock()
	c, ok := l.conns[addr]
	l.mu.RUnlock()
	if !ok {
		return
	}
	next := successor(c)
	l.mu.Lock() // want `l.mu is locked again for writing after RUnlock: the value written derives from c`
	l.conns[addr] = next
	l.mu.Unlock()
}

func successor(c *conn) *conn { return &conn{addr: c.addr, in: c.in} }

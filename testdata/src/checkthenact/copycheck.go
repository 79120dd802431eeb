package checkthenact

import "sync"

// A pool's single shared connection, dialled on first use, double-checked
// on the copy: the second test is of conn, which cannot have changed.

type Upstream struct{ addr string }

type UpstreamDialer struct {
	mu   sync.Mutex
	conn *Upstream
	addr string
}

func (d *UpstreamDialer) Upstream() *Upstream {
	d.mu.Lock()
	conn := d.conn
	d.mu.Unlock()
	if conn != nil {
		return conn
	}
	dialed := &Upstream{addr: d.addr}
	d.mu.Lock() // want `d.mu is locked again after the section that checked: conn, set from d.conn in an earlier section, is tested again in this section; it cannot have changed`
	defer d.mu.Unlock()
	if conn == nil {
		d.conn = dialed
		return dialed
	}
	return conn
}

// ConnChecked looks at the field itself in the second section.
func (d *UpstreamDialer) ConnChecked() *Upstream {
	d.mu.Lock()
	conn := d.conn
	d.mu.Unlock()
	if conn != nil {
		return conn
	}
	dialed := &Upstream{addr: d.addr}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.conn == nil {
		d.conn = dialed
	}
	return d.conn
}

// A bounded queue that counts again in the second section: silent.
type Inbox struct {
	mu    sync.Mutex
	items []string
	max   int
}

func (b *Inbox) Push(item string) bool {
	b.mu.Lock()
	n := len(b.items)
	b.mu.Unlock()
	if n >= b.max {
		return false
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if n = len(b.items); n >= b.max {
		return false
	}
	b.items = append(b.items, item)
	return true
}

// PushLogged tests the stale count in the second section only to log it;
// the bound is checked on the shared state: silent.
func (b *Inbox) PushLogged(item string, logf func(string, ...any)) bool {
	b.mu.Lock()
	n := len(b.items)
	b.mu.Unlock()
	if n >= b.max {
		return false
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if n > b.max/2 {
		logf("inbox half full")
	}
	if len(b.items) >= b.max {
		return false
	}
	b.items = append(b.items, item)
	return true
}

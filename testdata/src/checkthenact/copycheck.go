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
	d.mu.Lock() // want `d.mu is locked again after the section that checked: conn, the copy of d.conn made in an earlier section, is tested again in this section; it cannot have changed`
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

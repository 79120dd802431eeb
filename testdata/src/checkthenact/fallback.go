package checkthenact

import (
	"errors"
	"sync"
)

type Target struct {
	Host string
	Path string
}

type Request struct {
	Target *Target
	Body   []byte
}

var errHandshake = errors.New("handshake failed")

// Fallback remembers the last host whose secure attempt failed, so the
// next request to it goes straight to plain. The second section stores
// the request's own host, and only where the first found the remembered
// host different from it: whatever another request stored in between, a
// fresh test would store the same. Silent.
type Fallback struct {
	mu     sync.Mutex
	plain  string
	secure func(*Request) error
	direct func(*Request) error
}

func (f *Fallback) Send(r *Request) error {
	f.mu.Lock()
	trySecure := f.plain != r.Target.Host
	f.mu.Unlock()
	if trySecure {
		err := f.secure(r)
		if !errors.Is(err, errHandshake) {
			return err
		}
		f.mu.Lock()
		f.plain = r.Target.Host
		f.mu.Unlock()
	}
	return f.direct(r)
}

// Route is a routing entry other requests update under its own lock.
type Route struct {
	mu   sync.Mutex
	Host string
}

// SendVia does the same with the host read from a shared route: the route
// may point elsewhere by the time the host is stored.
func (f *Fallback) SendVia(route *Route, r *Request) error {
	f.mu.Lock()
	trySecure := f.plain != route.Host
	f.mu.Unlock()
	if trySecure {
		err := f.secure(r)
		if !errors.Is(err, errHandshake) {
			return err
		}
		f.mu.Lock() // want `f.mu is locked again after the section that checked: the write is decided by trySecure`
		f.plain = route.Host
		f.mu.Unlock()
	}
	return f.direct(r)
}

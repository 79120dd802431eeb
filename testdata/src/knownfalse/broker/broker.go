// Package broker attaches client connections. Attach looks up the
// previous session of the client's ID (a helper reading under the
// registry's read lock) and, when there is one, copies its pending
// messages into the new client; when the connection ends, the client's
// entry is removed unless a newer connection took the ID over. Known
// false in its program: the removal is decided by the new client's own
// state when it leaves, not by the lookup made when it arrived; the
// lookup reaches the test only because the helper wrote into the new
// client, and the engine counts every later read of an object a helper
// wrote into as derived from what the helper read (an engine
// imprecision, not a fact it lacks).
package broker

import (
	"sync"
	"sync/atomic"
)

type Client struct {
	ID       string
	Pending  []string
	Clean    bool
	replaced atomic.Bool
}

type Registry struct {
	sync.RWMutex
	clients map[string]*Client
}

func (r *Registry) Get(id string) (*Client, bool) {
	r.RLock()
	defer r.RUnlock()
	c, ok := r.clients[id]
	return c, ok
}

func (r *Registry) Add(c *Client) {
	r.Lock()
	defer r.Unlock()
	r.clients[c.ID] = c
}

func (r *Registry) Delete(id string) {
	r.Lock()
	defer r.Unlock()
	delete(r.clients, id)
}

type Server struct {
	Clients *Registry
}

// inherit moves the previous session's pending messages to c.
func (s *Server) inherit(c *Client) bool {
	old, ok := s.Clients.Get(c.ID)
	if !ok {
		return false
	}
	old.replaced.Store(true)
	c.Pending = append(c.Pending, old.Pending...)
	return true
}

func (s *Server) Attach(c *Client, serve func(*Client) error) error {
	present := s.inherit(c)
	s.Clients.Add(c)
	if present {
		if err := resend(c); err != nil {
			return err
		}
	}
	err := serve(c)
	if c.Clean && !c.replaced.Load() {
		s.Clients.Delete(c.ID) // want `s.Clients.RWMutex is locked again for writing by s.Clients.Delete after RUnlock: the write is decided by present`
	}
	return err
}

func resend(*Client) error { return nil }

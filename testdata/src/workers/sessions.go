package workers

import "sync"

// Hub runs one goroutine per session, started when the session is made.
// Each session's loop is the only writer of that session's closed flag;
// the hub's lock only publishes it to readers. Silent: the loop's own
// earlier read cannot go stale, however many sessions run.
type Hub struct {
	mu       sync.RWMutex
	sessions []*session
	dropped  int
}

type session struct {
	hub    *Hub
	closed bool
	in     chan string
}

func (h *Hub) Open() *session {
	s := &session{hub: h, in: make(chan string, 16)}
	h.mu.Lock()
	h.sessions = append(h.sessions, s)
	h.mu.Unlock()
	go s.serve()
	return s
}

// OpenAll opens n sessions: the go statement in Open runs once per session.
func (h *Hub) OpenAll(n int) []*session {
	var out []*session
	for range n {
		out = append(out, h.Open())
	}
	return out
}

func (s *session) serve() {
	for msg := range s.in {
		s.hub.mu.RLock()
		closed := s.closed
		s.hub.mu.RUnlock()
		if closed {
			continue
		}
		if msg == "quit" {
			s.hub.mu.Lock()
			s.closed = true
			s.hub.mu.Unlock()
		}
	}
}

func (h *Hub) Live() int {
	h.mu.RLock()
	defer h.mu.RUnlock()
	n := 0
	for _, s := range h.sessions {
		if !s.closed {
			n++
		}
	}
	return n
}

// ledgerSession's loop counts into the hub it belongs to: the count is the
// hub's, shared by every session's loop, and one loop's stale count
// overwrites another's.
type ledgerSession struct {
	hub *Hub
	in  chan string
}

func (h *Hub) OpenLedger() *ledgerSession {
	s := &ledgerSession{hub: h, in: make(chan string, 16)}
	go s.serve()
	return s
}

func (h *Hub) OpenLedgers(n int) {
	for range n {
		h.OpenLedger()
	}
}

func (s *ledgerSession) serve() {
	for msg := range s.in {
		s.hub.mu.RLock()
		n := s.hub.dropped
		s.hub.mu.RUnlock()
		if msg != "" {
			continue
		}
		s.hub.mu.Lock() // want `s.hub.mu is locked again for writing after RUnlock: the value written derives from n`
		s.hub.dropped = n + 1
		s.hub.mu.Unlock()
	}
}

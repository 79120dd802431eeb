package checkthenact

import "sync"

// A hub of sessions, each with its own lock. The hub's lock only guards
// the index; everything a session holds is guarded by the session's lock,
// and a session leaves the index only once it is empty, marked closed
// under both locks.

type conn struct{ addr string }

type session struct {
	sync.Mutex
	conns  map[string]*conn
	closed bool
}

type Hub struct {
	mu       sync.Mutex
	sessions map[string]*session
}

// Attach finds or creates the session and retries when it caught one
// that was closed after the lookup.
func (h *Hub) Attach(id string, c *conn) {
	for {
		h.mu.Lock()
		s, ok := h.sessions[id]
		if !ok {
			s = &session{conns: make(map[string]*conn)}
			h.sessions[id] = s
		}
		h.mu.Unlock()

		s.Lock()
		if !s.closed {
			s.conns[c.addr] = c
			s.Unlock()
			return
		}
		s.Unlock()
	}
}

// Detach acts on the session it found only under the session's own lock,
// and only after finding there the connection it detaches: a racer that
// emptied and dropped the session first leaves nothing to find. The
// session is dropped from the index by the one caller that emptied it,
// still holding its lock, so the key cannot name a newer session yet.
func (h *Hub) Detach(id, addr string) {
	h.mu.Lock()
	s, ok := h.sessions[id]
	h.mu.Unlock()
	if !ok {
		return
	}

	s.Lock()
	defer s.Unlock()
	if _, ok := s.conns[addr]; !ok {
		return
	}
	delete(s.conns, addr)
	if len(s.conns) == 0 {
		h.mu.Lock()
		s.closed = true
		delete(h.sessions, id)
		h.mu.Unlock()
	}
}

// DetachLate checks the session under its lock but lets the lock go
// before dropping it: a new connection may arrive in between, and the
// session is dropped from the index with it.
func (h *Hub) DetachLate(id, addr string) {
	h.mu.Lock()
	s, ok := h.sessions[id]
	h.mu.Unlock()
	if !ok {
		return
	}

	s.Lock()
	delete(s.conns, addr)
	empty := len(s.conns) == 0
	s.Unlock()
	if empty {
		h.mu.Lock() // want `h\.mu is locked again after the section that checked: the write goes through s, read in an earlier section, which may have been removed or replaced since; look it up again in this section`
		s.closed = true
		delete(h.sessions, id)
		h.mu.Unlock()
	}
}

// Seat is held by at most one session at a time.
type Seat struct {
	mu     sync.Mutex
	holder string
}

func (s *Seat) Holder() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.holder
}

// Leave frees the seat if the caller held it: by the time the lock is
// taken again another session may hold it, and its hold is cleared.
func (s *Seat) Leave(session string) bool {
	held := s.Holder()
	if held == "" || held != session {
		return false
	}
	s.mu.Lock() // want `s.mu is locked again after the section that checked: the write is decided by held`
	s.holder = ""
	s.mu.Unlock()
	return true
}

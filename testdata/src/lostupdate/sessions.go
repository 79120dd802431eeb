package lostupdate

import "sync"

type session struct {
	id     string
	closed bool
	in     chan []byte
}

type reply struct {
	session string
	attach  bool
	failed  bool
	data    []byte
}

// Mux routes replies to sessions. Its read loop opens a session when a
// reply attaches one and closes it when a reply fails; closeSession looks
// the session up again and does nothing when it is gone. A session found
// missing only sends the loop on to the next reply, which looks again:
// no update of this turn is dropped.
type Mux struct {
	mu       sync.RWMutex
	sessions map[string]*session
	done     chan struct{}
}

func (m *Mux) session(id string) *session {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.sessions[id]
}

func (m *Mux) closeSession(id string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	s, ok := m.sessions[id]
	if !ok {
		return false
	}
	s.closed = true
	delete(m.sessions, id)
	return true
}

func (m *Mux) readLoop(replies <-chan reply) {
	for r := range replies {
		if r.attach {
			m.mu.Lock()
			m.sessions[r.session] = &session{id: r.session, in: make(chan []byte, 8)}
			m.mu.Unlock()
			continue
		}
		s := m.session(r.session)
		if s == nil {
			continue
		}
		if r.failed {
			m.closeSession(s.id)
			continue
		}
		select {
		case s.in <- r.data:
		case <-m.done:
			return
		}
	}
}

// Toggle opens the sessions it finds missing and closes those it finds
// open, in the same turn: one closed by someone else in between is
// neither closed by Toggle nor opened again.
func (m *Mux) Toggle(ids []string) {
	for _, id := range ids {
		s := m.session(id)
		if s == nil {
			m.mu.Lock()
			m.sessions[id] = &session{id: id, in: make(chan []byte, 8)}
			m.mu.Unlock()
			continue
		}
		m.closeSession(s.id) // want `m.mu is locked again for writing by m.closeSession after RUnlock: s was present under the read lock`
	}
}

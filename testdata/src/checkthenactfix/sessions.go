package checkthenactfix

import "sync"

type Session struct{ user string }

func open(user string) *Session { return &Session{user: user} }

// Sessions opens a session outside its mutex when the user has none; a
// racer may have opened one since, so the store keeps the one found.
type Sessions struct {
	mu     sync.Mutex
	byUser map[string]*Session
}

func (s *Sessions) For(user string) *Session {
	s.mu.Lock()
	sess := s.byUser[user]
	s.mu.Unlock()
	if sess == nil {
		sess = open(user) // dials: kept out of the lock
		s.mu.Lock()       // want `s.mu is locked again after the section that checked: sess was missing`
		s.byUser[user] = sess
		s.mu.Unlock()
	}
	return sess
}

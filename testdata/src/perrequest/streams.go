// Package perrequest keeps state per HTTP request, keyed by the request.
package perrequest

import (
	"net/http"
	"sync"
)

// Streams hands each request its own event channel. The server gives
// every ServeHTTP call a request of its own, so no other goroutine can
// have registered this request between the lookup and the store. Silent.
type Streams struct {
	mu       sync.RWMutex
	requests map[*http.Request]chan []byte
}

func (s *Streams) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	events := s.register(req)
	defer s.unregister(req)
	for b := range events {
		if _, err := w.Write(b); err != nil {
			return
		}
	}
}

func (s *Streams) register(req *http.Request) chan []byte {
	s.mu.RLock()
	events, ok := s.requests[req]
	s.mu.RUnlock()
	if ok {
		return events
	}
	events = make(chan []byte, 16)
	s.mu.Lock()
	s.requests[req] = events
	s.mu.Unlock()
	return events
}

func (s *Streams) unregister(req *http.Request) {
	s.mu.Lock()
	delete(s.requests, req)
	s.mu.Unlock()
}

// Sessions keys the same way by the client's address: two requests from
// one client (HTTP/2 streams on one connection) share the key.
type Sessions struct {
	mu       sync.RWMutex
	sessions map[string]*session
}

type session struct{ id string }

func (s *Sessions) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	w.Header().Set("X-Session", s.open(req.RemoteAddr).id)
}

func (s *Sessions) open(addr string) *session {
	s.mu.RLock()
	sess, ok := s.sessions[addr]
	s.mu.RUnlock()
	if ok {
		return sess
	}
	sess = &session{id: addr}
	s.mu.Lock() // want `s.mu is locked again for writing after RUnlock: sess was missing under the read lock`
	s.sessions[addr] = sess
	s.mu.Unlock()
	return sess
}

// Register is exported: its caller may register one request twice, from
// two goroutines.
type Watchers struct {
	mu       sync.RWMutex
	watchers map[*http.Request]chan struct{}
}

func (ws *Watchers) Register(req *http.Request) chan struct{} {
	ws.mu.RLock()
	ch, ok := ws.watchers[req]
	ws.mu.RUnlock()
	if ok {
		return ch
	}
	ch = make(chan struct{})
	ws.mu.Lock() // want `ws.mu is locked again for writing after RUnlock: ch was missing under the read lock`
	ws.watchers[req] = ch
	ws.mu.Unlock()
	return ch
}

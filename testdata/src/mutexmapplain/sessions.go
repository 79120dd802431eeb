package mutexmapplain

import "sync"

// Session is an object with a lock of its own guarding its state. A map
// of sessions is not a map of locks: dropping a closed session is normal,
// and whoever still holds it works on the object it has.
type Session struct {
	mu     sync.Mutex
	user   string
	tokens []string
}

type Sessions struct {
	mu   sync.Mutex
	byID map[string]*Session
}

func (s *Sessions) Touch(id, token string) {
	s.mu.Lock()
	sess := s.byID[id]
	s.mu.Unlock()
	if sess == nil {
		return
	}
	sess.mu.Lock()
	sess.tokens = append(sess.tokens, token)
	sess.mu.Unlock()
}

func (s *Sessions) Close(id string) {
	s.mu.Lock()
	delete(s.byID, id)
	s.mu.Unlock()
}

// gates is a package-level map of locks with a free-standing cleanup
// function: the delete splits the lock the same way.
var (
	gatesMu sync.Mutex
	gates   = map[int]*sync.Mutex{}
)

func gate(port int) *sync.Mutex {
	gatesMu.Lock()
	defer gatesMu.Unlock()
	g, ok := gates[port]
	if !ok {
		g = new(sync.Mutex)
		gates[port] = g
	}
	return g
}

func Serve(port int, serve func()) {
	g := gate(port)
	g.Lock()
	defer g.Unlock()
	serve()
}

func ClosePort(port int) {
	gatesMu.Lock()
	defer gatesMu.Unlock()
	delete(gates, port) // want `per-key mutex removed from gates by delete`
}

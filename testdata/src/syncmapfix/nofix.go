package syncmapfix

import "sync"

type Sessions struct {
	byID sync.Map // string -> *session
}

type session struct{ id string }

// Open stores a value built in place: no variable to hand the winner to,
// so the finding carries no fix.
func (s *Sessions) Open(id string) {
	if _, ok := s.byID.Load(id); ok {
		return
	}
	s.byID.Store(id, &session{id: id}) // want `s.byID.Store stores what s.byID.Load found missing`
}

// Bump's stale value is added to: CompareAndSwap needs a loop the fix
// cannot write for it.
func (s *Sessions) Bump(counts *sync.Map, id string) {
	n := 0
	if v, ok := counts.Load(id); ok {
		n = v.(int)
	}
	counts.Store(id, n+1) // want `counts.Store writes a value derived from counts.Load`
}

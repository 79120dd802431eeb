package helpers

import (
	"sync"
	"sync/atomic"
)

// A broker whose clients reconnect under the same ID. Attaching a client
// looks up the session it replaces (a helper reading under the registry's
// read lock) and, when there was one, resends what the old session had in
// flight; a failed resend drops the connection. When the connection ends,
// the client's entry goes unless a newer connection took the ID over.
//
// Whether a session was replaced only decides whether the resend runs:
// the code after it is reached on both answers whenever the resend works,
// so the removal at the end is decided by the client's own state, not by
// the lookup made when it arrived.
type peer struct {
	id       string
	pending  []string
	clean    bool
	replaced atomic.Bool
}

type peers struct {
	mu   sync.RWMutex
	byID map[string]*peer
}

func (r *peers) get(id string) (*peer, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	p, ok := r.byID[id]
	return p, ok
}

func (r *peers) add(p *peer) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.byID[p.id] = p
}

func (r *peers) remove(id string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.byID, id)
}

type broker struct {
	peers *peers
}

// takeOver moves the replaced session's pending messages to p.
func (b *broker) takeOver(p *peer) bool {
	old, ok := b.peers.get(p.id)
	if !ok {
		return false
	}
	old.replaced.Store(true)
	p.pending = append(p.pending, old.pending...)
	return true
}

func (b *broker) attach(p *peer, serve func(*peer) error) error {
	resumed := b.takeOver(p)
	b.peers.add(p)
	if resumed {
		if err := redeliver(p); err != nil {
			return err
		}
	}
	err := serve(p)
	if p.clean && !p.replaced.Load() {
		b.peers.remove(p.id)
	}
	return err
}

// attachFresh registers the client only when no session had its ID, after
// a handshake that may fail: the stale "no session" is what lets the add
// run.
func (b *broker) attachFresh(p *peer) error {
	_, resumed := b.peers.get(p.id)
	if !resumed {
		if err := handshake(p); err != nil {
			return err
		}
		b.peers.add(p) // want `b.peers.mu is locked again for writing by b.peers.add after RUnlock: b.peers.get\(p.id\) was missing under the read lock`
	}
	return nil
}

func redeliver(*peer) error { return nil }

func handshake(*peer) error { return nil }

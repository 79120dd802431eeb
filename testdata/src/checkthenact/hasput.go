package checkthenact

import "sync"

// Tunnels holds one open tunnel per peer; Has and Put each lock.
type Tunnels struct {
	mu   sync.Mutex
	open map[string]*tunnel
}

type tunnel struct{ peer string }

func dialTunnel(peer string) *tunnel { return &tunnel{peer: peer} }

func (t *Tunnels) Has(peer string) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	_, ok := t.open[peer]
	return ok
}

func (t *Tunnels) Put(peer string, tn *tunnel) {
	t.mu.Lock()
	t.open[peer] = tn
	t.mu.Unlock()
}

// putIfAbsent stores tn only where no tunnel is open yet, and says which
// one is kept.
func (t *Tunnels) putIfAbsent(peer string, tn *tunnel) *tunnel {
	t.mu.Lock()
	defer t.mu.Unlock()
	if cur, ok := t.open[peer]; ok {
		return cur
	}
	t.open[peer] = tn
	return tn
}

// Ensure dials when Has said no tunnel was open: two callers both dial,
// and the second Put replaces the first tunnel, which is never closed.
func (t *Tunnels) Ensure(peer string) {
	if t.Has(peer) {
		return
	}
	t.Put(peer, dialTunnel(peer)) // want `t.mu is locked again by t.Put after the section that checked: the entry t.Has\(peer\) looked for was missing in an earlier section`
}

// EnsureAbsent asks the same question first, to skip the dial, and lets
// putIfAbsent decide again under the lock which tunnel stays.
func (t *Tunnels) EnsureAbsent(peer string) *tunnel {
	if t.Has(peer) {
		return nil
	}
	return t.putIfAbsent(peer, dialTunnel(peer))
}

// Forget closes the tunnel only if Has still finds one: the removal after
// a stale "it is there" removes whatever is there now, which is what
// forgetting means.
func (t *Tunnels) Forget(peer string) {
	if !t.Has(peer) {
		return
	}
	t.mu.Lock()
	delete(t.open, peer)
	t.mu.Unlock()
}

// Seen records the peers ever greeted; marking one twice is harmless.
type Seen struct {
	mu    sync.Mutex
	peers map[string]bool
}

func (s *Seen) Knows(peer string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.peers[peer]
	return ok
}

func (s *Seen) set(peer string, v bool) {
	s.mu.Lock()
	s.peers[peer] = v
	s.mu.Unlock()
}

func (s *Seen) mark(peer string) {
	s.mu.Lock()
	s.peers[peer] = true
	s.mu.Unlock()
}

// Greet marks a peer not seen yet: racers all store true, by argument or
// inside the helper, so nothing is replaced by anything else. Silent.
func (s *Seen) Greet(peer string) {
	if s.Knows(peer) {
		return
	}
	s.set(peer, true)
}

func (s *Seen) GreetOnce(peer string) {
	if !s.Knows(peer) {
		s.mark(peer)
	}
}

// Beacons remembers the ids seen, as a set of empty structs.
type Beacons struct {
	mu   sync.Mutex
	seen map[string]struct{}
}

func (b *Beacons) seenAlready(id string) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	_, ok := b.seen[id]
	return ok
}

func (b *Beacons) markSeen(id string) {
	b.mu.Lock()
	b.seen[id] = struct{}{}
	b.mu.Unlock()
}

// Note marks an id not seen yet: a racer's mark is the same empty
// member. Silent.
func (b *Beacons) Note(id string) {
	if b.seenAlready(id) {
		return
	}
	b.markSeen(id)
}

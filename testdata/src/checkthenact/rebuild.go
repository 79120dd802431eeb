package checkthenact

import "sync"

type build struct {
	done   chan struct{}
	result map[string]string
}

func compile(old map[string]string) map[string]string {
	out := make(map[string]string, len(old))
	for k, v := range old {
		out[k] = v + "'"
	}
	return out
}

// Builder runs one build at a time. Rebuild takes the slot (active) in
// the section that reads the hashes of the last build, or waits for the
// build holding it; the build runs with no lock held, and the section
// that stores its hashes gives the slot back. While the slot is taken no
// other Rebuild gets past its first section, and Rebuild alone writes the
// hashes. Silent.
type Builder struct {
	mu     sync.Mutex
	active *build
	hashes map[string]string
}

func (b *Builder) Rebuild() map[string]string {
	b.mu.Lock()
	if cur := b.active; cur != nil {
		b.mu.Unlock()
		<-cur.done
		return cur.result
	}
	cur := &build{done: make(chan struct{})}
	b.active = cur
	old := b.hashes
	b.mu.Unlock()

	cur.result = compile(old)

	b.mu.Lock()
	b.active = nil
	b.hashes = cur.result
	b.mu.Unlock()
	close(cur.done)
	return cur.result
}

// Serve rebuilds for each request: it writes the hashes only through
// Rebuild, under Rebuild's slot.
func (b *Builder) Serve(requests <-chan struct{}, out chan<- map[string]string) {
	for range requests {
		out <- b.Rebuild()
	}
}

// Sketcher takes a slot as Builder does, but Seed writes the hashes
// without it: a Seed landing between Redraw's sections is replaced by a
// result built from the hashes before it.
type Sketcher struct {
	mu     sync.Mutex
	active *build
	hashes map[string]string
}

func (s *Sketcher) Seed(h map[string]string) {
	s.mu.Lock()
	s.hashes = h
	s.mu.Unlock()
}

func (s *Sketcher) Redraw() map[string]string {
	s.mu.Lock()
	if cur := s.active; cur != nil {
		s.mu.Unlock()
		<-cur.done
		return cur.result
	}
	cur := &build{done: make(chan struct{})}
	s.active = cur
	old := s.hashes
	s.mu.Unlock()

	cur.result = compile(old)

	s.mu.Lock() // want `s.mu is locked again after the section that checked: the value written derives from old`
	s.active = nil
	s.hashes = cur.result
	s.mu.Unlock()
	close(cur.done)
	return cur.result
}

package checkthenact

import (
	"errors"
	"io"
	"sync"
)

var errReceiving = errors.New("another receive is in progress")

// frameSource delivers a stream's frames; the call blocks.
type frameSource interface {
	Next() (frame string, last bool, err error)
}

// stream lets one receiver at a time read its frames: claim sets
// receiving only where it found it unset, and fails otherwise; release
// clears it. The flag is a lock by another name, held from a receiver's
// claim to its release.
type stream struct {
	mu        sync.Mutex
	src       frameSource
	receiving bool
	ended     bool
	finished  bool
	result    error
}

// newStream spells the flag's initial value out: the new stream is no
// one else's yet, so the flag stays a claim.
func newStream(src frameSource) *stream {
	return &stream{src: src, receiving: false}
}

func (s *stream) claim() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.receiving {
		return errReceiving
	}
	s.receiving = true
	return nil
}

func (s *stream) release() {
	s.mu.Lock()
	s.receiving = false
	s.mu.Unlock()
}

// next is called only by receivers holding the claim, and it alone
// writes ended: no one can end the stream between its two sections.
// Silent.
func (s *stream) next() (string, error) {
	s.mu.Lock()
	ended := s.ended
	s.mu.Unlock()
	if ended {
		return "", io.EOF
	}
	frame, last, err := s.src.Next()
	if err == nil && last {
		s.mu.Lock()
		s.ended = true
		s.mu.Unlock()
	}
	return frame, err
}

func (s *stream) Recv() (string, error) {
	if err := s.claim(); err != nil {
		return "", err
	}
	defer s.release()
	return s.next()
}

// Drain holds the claim across both of its sections: no other receiver,
// and so no other Drain, runs in between. Silent.
func (s *stream) Drain(handle func(string) error) error {
	if err := s.claim(); err != nil {
		return err
	}
	defer s.release()
	s.mu.Lock()
	finished, result := s.finished, s.result
	s.mu.Unlock()
	if finished {
		return result
	}
	var err error
	for err == nil {
		var frame string
		if frame, err = s.next(); err == nil {
			err = handle(frame)
		}
	}
	if err == io.EOF {
		err = nil
	}
	s.mu.Lock()
	s.finished, s.result = true, err
	s.mu.Unlock()
	return err
}

// feed is the twin whose Rewind ends the stream without the claim: a
// Rewind landing between next's sections is overwritten.
type feed struct {
	mu        sync.Mutex
	src       frameSource
	receiving bool
	ended     bool
}

func (f *feed) claim() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.receiving {
		return errReceiving
	}
	f.receiving = true
	return nil
}

func (f *feed) release() {
	f.mu.Lock()
	f.receiving = false
	f.mu.Unlock()
}

func (f *feed) next() (string, error) {
	f.mu.Lock()
	ended := f.ended
	f.mu.Unlock()
	if ended {
		return "", io.EOF
	}
	frame, last, err := f.src.Next()
	if err == nil && last {
		f.mu.Lock() // want `f.mu is locked again after the section that checked`
		f.ended = true
		f.mu.Unlock()
	}
	return frame, err
}

func (f *feed) Recv() (string, error) {
	if err := f.claim(); err != nil {
		return "", err
	}
	defer f.release()
	return f.next()
}

// Rewind starts the feed over, claim or no claim.
func (f *feed) Rewind(src frameSource) {
	f.mu.Lock()
	f.src, f.ended = src, false
	f.mu.Unlock()
}

// relay's flag is also set without a test (Force takes over whatever
// receive is running), so it is no claim: the gap is reported.
type relay struct {
	mu        sync.Mutex
	src       frameSource
	receiving bool
	ended     bool
}

func (r *relay) claim() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.receiving {
		return errReceiving
	}
	r.receiving = true
	return nil
}

func (r *relay) release() {
	r.mu.Lock()
	r.receiving = false
	r.mu.Unlock()
}

func (r *relay) Force() (string, error) {
	r.mu.Lock()
	r.receiving = true
	r.mu.Unlock()
	defer r.release()
	return r.next()
}

func (r *relay) Recv() (string, error) {
	if err := r.claim(); err != nil {
		return "", err
	}
	defer r.release()
	return r.next()
}

func (r *relay) next() (string, error) {
	r.mu.Lock()
	ended := r.ended
	r.mu.Unlock()
	if ended {
		return "", io.EOF
	}
	frame, last, err := r.src.Next()
	if err == nil && last {
		r.mu.Lock() // want `r.mu is locked again after the section that checked`
		r.ended = true
		r.mu.Unlock()
	}
	return frame, err
}

// framePump tests its flag in one section and sets it in the next: two
// callers can both find it unset, so it claims nothing, and the gap in
// the work it guards is reported too.
type framePump struct {
	mu      sync.Mutex
	src     frameSource
	running bool
	ended   bool
}

func (p *framePump) start() error {
	p.mu.Lock()
	running := p.running
	p.mu.Unlock()
	if running {
		return errReceiving
	}
	p.mu.Lock() // want `p.mu is locked again after the section that checked`
	p.running = true
	p.mu.Unlock()
	return nil
}

func (p *framePump) stop() {
	p.mu.Lock()
	p.running = false
	p.mu.Unlock()
}

func (p *framePump) Next() (string, error) {
	if err := p.start(); err != nil {
		return "", err
	}
	defer p.stop()
	p.mu.Lock()
	ended := p.ended
	p.mu.Unlock()
	if ended {
		return "", io.EOF
	}
	frame, last, err := p.src.Next()
	if err == nil && last {
		p.mu.Lock() // want `p.mu is locked again after the section that checked`
		p.ended = true
		p.mu.Unlock()
	}
	return frame, err
}

package checkthenact

import (
	"errors"
	"io"
	"net/textproto"
	"sync"
)

var errPipeline = errors.New("response to a request not read")

// Responder writes pipelined responses in request order. A response's
// turn, StartResponse to EndResponse, excludes every other response: the
// count check and the count taken inside one turn cannot interleave with
// another response's.
type Responder struct {
	mu       sync.Mutex
	pipe     textproto.Pipeline
	pending  map[string]uint
	nread    int
	nwritten int
}

func (r *Responder) Write(w io.Writer, req, resp string) error {
	r.mu.Lock()
	id, ok := r.pending[req]
	delete(r.pending, req)
	r.mu.Unlock()
	if !ok {
		return errPipeline
	}
	r.pipe.StartResponse(id)
	defer r.pipe.EndResponse(id)

	r.mu.Lock()
	if r.nread <= r.nwritten {
		r.mu.Unlock()
		return errPipeline
	}
	r.mu.Unlock()
	if _, err := io.WriteString(w, resp); err != nil {
		return err
	}
	r.mu.Lock()
	r.nwritten++
	r.mu.Unlock()
	return nil
}

// WriteNow skips the turn: two writers pass the count check together.
func (r *Responder) WriteNow(w io.Writer, resp string) error {
	r.mu.Lock()
	if r.nread <= r.nwritten {
		r.mu.Unlock()
		return errPipeline
	}
	r.mu.Unlock()
	if _, err := io.WriteString(w, resp); err != nil {
		return err
	}
	r.mu.Lock() // want `r.mu is locked again after the section that checked: the write is decided by r.nwritten`
	r.nwritten++
	r.mu.Unlock()
	return nil
}

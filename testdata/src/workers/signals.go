package workers

import (
	"os"
	"sync"
)

type options struct {
	configFile string
	debug      bool
}

func reloadOptions(o *options) *options {
	n := *o
	n.debug = !o.debug
	return &n
}

// signalServer starts one signal-handling goroutine per server, from its
// constructor: that goroutine alone replaces the options, so the copy it
// took a moment earlier is still current when it stores the reload.
// Silent.
type signalServer struct {
	mu   sync.RWMutex
	opts *options
	sigs chan os.Signal
}

func runSignalServer(o *options) *signalServer {
	s := &signalServer{opts: o, sigs: make(chan os.Signal, 1)}
	s.handleSignals()
	return s
}

// runPair runs a primary and a standby: two servers, one handler each.
func runPair(o *options) (primary, standby *signalServer) {
	return runSignalServer(o), runSignalServer(o)
}

func (s *signalServer) handleSignals() {
	go func() {
		for range s.sigs {
			s.mu.RLock()
			cur := s.opts
			s.mu.RUnlock()
			next := reloadOptions(cur)
			s.mu.Lock()
			s.opts = next
			s.mu.Unlock()
		}
	}()
}

// configServer has the same handler, but SetOptions replaces the options
// too, from any goroutine: the reload can undo it.
type configServer struct {
	mu   sync.RWMutex
	opts *options
	sigs chan os.Signal
}

func runConfigServer(o *options) *configServer {
	s := &configServer{opts: o, sigs: make(chan os.Signal, 1)}
	s.handleSignals()
	return s
}

func runConfigPair(o *options) (primary, standby *configServer) {
	return runConfigServer(o), runConfigServer(o)
}

func (s *configServer) SetOptions(o *options) {
	s.mu.Lock()
	s.opts = o
	s.mu.Unlock()
}

func (s *configServer) handleSignals() {
	go func() {
		for range s.sigs {
			s.mu.RLock()
			cur := s.opts
			s.mu.RUnlock()
			next := reloadOptions(cur)
			s.mu.Lock() // want `s.mu is locked again for writing after RUnlock: the value written derives from cur`
			s.opts = next
			s.mu.Unlock()
		}
	}()
}

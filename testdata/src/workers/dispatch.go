package workers

import "sync"

// A session's read loop hands each frame to the handler a package table
// names for its kind. The table is filled once, when the package is
// initialised, and only ever indexed and called: each handler runs on the
// read loop, the one goroutine NewFrameSession starts, which alone adds
// streams. Others only look streams up: silent. The twins below hand the
// table out, change it at run time, or call it from a second goroutine
// too: reported.

type frame struct {
	kind byte
	id   string
}

const (
	frameOpen byte = iota
	frameData
	frameClose
)

type FrameSession struct {
	mu      sync.RWMutex
	streams map[string][]string
	frames  chan frame
}

var frameHandlers = []func(*FrameSession, frame){
	frameOpen:  (*FrameSession).handleOpen,
	frameData:  (*FrameSession).handleOpen,
	frameClose: closeFrameStream,
}

func NewFrameSession() *FrameSession {
	s := &FrameSession{streams: make(map[string][]string), frames: make(chan frame)}
	go s.readLoop()
	return s
}

func (s *FrameSession) readLoop() {
	for f := range s.frames {
		if int(f.kind) < len(frameHandlers) {
			frameHandlers[f.kind](s, f)
		}
	}
}

func (s *FrameSession) handleOpen(f frame) {
	s.mu.RLock()
	_, ok := s.streams[f.id]
	s.mu.RUnlock()
	if ok {
		return
	}
	s.mu.Lock()
	s.streams[f.id] = nil
	s.mu.Unlock()
}

func closeFrameStream(s *FrameSession, f frame) {
	s.mu.Lock()
	delete(s.streams, f.id)
	s.mu.Unlock()
}

func (s *FrameSession) Streams() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return len(s.streams)
}

// The same, with the handlers in a map the package also hands out.

type SharedSession struct {
	mu      sync.RWMutex
	streams map[string][]string
	frames  chan frame
}

var sharedHandlers = map[byte]func(*SharedSession, frame){
	frameOpen:  (*SharedSession).handleOpen,
	frameClose: (*SharedSession).handleClose,
}

// Handlers lets a caller run a frame through the session's handlers.
func Handlers() map[byte]func(*SharedSession, frame) { return sharedHandlers }

func NewSharedSession() *SharedSession {
	s := &SharedSession{streams: make(map[string][]string), frames: make(chan frame)}
	go s.readLoop()
	return s
}

func (s *SharedSession) readLoop() {
	for f := range s.frames {
		if h, ok := sharedHandlers[f.kind]; ok {
			h(s, f)
		}
	}
}

func (s *SharedSession) handleOpen(f frame) {
	s.mu.RLock()
	_, ok := s.streams[f.id]
	s.mu.RUnlock()
	if ok {
		return
	}
	s.mu.Lock() // want `s.mu is locked again for writing after RUnlock`
	s.streams[f.id] = nil
	s.mu.Unlock()
}

func (s *SharedSession) handleClose(f frame) {
	s.mu.Lock()
	delete(s.streams, f.id)
	s.mu.Unlock()
}

// A table a function fills at run time, after the read loop may have
// started: not a table the initialiser alone fills.

type LateSession struct {
	mu      sync.RWMutex
	streams map[string][]string
	frames  chan frame
}

var lateHandlers map[byte]func(*LateSession, frame)

func RegisterLateHandlers() {
	lateHandlers = map[byte]func(*LateSession, frame){frameOpen: (*LateSession).handleOpen}
}

func NewLateSession() *LateSession {
	s := &LateSession{streams: make(map[string][]string), frames: make(chan frame)}
	go s.readLoop()
	return s
}

func (s *LateSession) readLoop() {
	for f := range s.frames {
		if h := lateHandlers[f.kind]; h != nil {
			h(s, f)
		}
	}
}

func (s *LateSession) handleOpen(f frame) {
	s.mu.RLock()
	_, ok := s.streams[f.id]
	s.mu.RUnlock()
	if ok {
		return
	}
	s.mu.Lock() // want `s.mu is locked again for writing after RUnlock`
	s.streams[f.id] = nil
	s.mu.Unlock()
}

// A table the read loop calls, and so does Inject, on the caller's
// goroutine: two goroutines run the handlers.

type InjectSession struct {
	mu      sync.RWMutex
	streams map[string][]string
	frames  chan frame
}

var injectHandlers = [...]func(*InjectSession, frame){
	frameOpen: (*InjectSession).handleOpen,
}

func NewInjectSession() *InjectSession {
	s := &InjectSession{streams: make(map[string][]string), frames: make(chan frame)}
	go s.readLoop()
	return s
}

func (s *InjectSession) readLoop() {
	for f := range s.frames {
		if int(f.kind) < len(injectHandlers) {
			injectHandlers[f.kind](s, f)
		}
	}
}

// Inject handles a frame on the caller's goroutine.
func (s *InjectSession) Inject(f frame) {
	if int(f.kind) < len(injectHandlers) {
		injectHandlers[f.kind](s, f)
	}
}

func (s *InjectSession) handleOpen(f frame) {
	s.mu.RLock()
	_, ok := s.streams[f.id]
	s.mu.RUnlock()
	if ok {
		return
	}
	s.mu.Lock() // want `s.mu is locked again for writing after RUnlock`
	s.streams[f.id] = nil
	s.mu.Unlock()
}

// A control session whose table is a map of a named function type
// holding plain functions: silent as FrameSession is.

type ctlHandler func(*CtlSession, frame)

type CtlSession struct {
	mu      sync.RWMutex
	streams map[string][]string
	frames  chan frame
}

var ctlHandlers = map[byte]ctlHandler{
	frameOpen:  openCtlStream,
	frameClose: closeCtlStream,
}

func NewCtlSession() *CtlSession {
	s := &CtlSession{streams: make(map[string][]string), frames: make(chan frame)}
	go s.readLoop()
	return s
}

func (s *CtlSession) readLoop() {
	for f := range s.frames {
		h, ok := ctlHandlers[f.kind]
		if !ok || h == nil {
			continue
		}
		h(s, f)
	}
}

func openCtlStream(s *CtlSession, f frame) {
	s.mu.RLock()
	_, ok := s.streams[f.id]
	s.mu.RUnlock()
	if ok {
		return
	}
	s.mu.Lock()
	s.streams[f.id] = nil
	s.mu.Unlock()
}

func closeCtlStream(s *CtlSession, f frame) {
	s.mu.Lock()
	delete(s.streams, f.id)
	s.mu.Unlock()
}

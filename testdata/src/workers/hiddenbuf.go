package workers

import "sync"

// A receive window kept by a connection's read loop: Fill, an exported
// method of an unexported type no other package can get hold of, is
// called only on the loop, the one goroutine Dial starts, and takes what
// it found room for. Readers on other goroutines only give room back
// (Release): silent. In OpenWindows the same type is handed out, so
// anyone may call Fill: reported.

type recvWindow struct {
	mu    sync.RWMutex
	room  int
	taken int
}

func (w *recvWindow) Fill(n int) bool {
	w.mu.RLock()
	room := w.room
	w.mu.RUnlock()
	if room < n {
		return false
	}
	w.mu.Lock()
	w.room = room - n
	w.taken += n
	w.mu.Unlock()
	return true
}

func (w *recvWindow) Release(n int) {
	w.mu.Lock()
	w.taken -= n
	w.mu.Unlock()
}

type WindowConn struct {
	win    *recvWindow
	chunks chan int
}

func Dial() *WindowConn {
	c := &WindowConn{win: &recvWindow{room: 1 << 20}, chunks: make(chan int)}
	go c.readLoop()
	return c
}

func (c *WindowConn) readLoop() {
	for n := range c.chunks {
		if !c.win.Fill(n) {
			return
		}
	}
}

func (c *WindowConn) Read(n int) { c.win.Release(n) }

type openWindow struct {
	mu    sync.RWMutex
	room  int
	taken int
}

func (w *openWindow) Fill(n int) bool {
	w.mu.RLock()
	room := w.room
	w.mu.RUnlock()
	if room < n {
		return false
	}
	w.mu.Lock() // want `w.mu is locked again for writing after RUnlock`
	w.room = room - n
	w.taken += n
	w.mu.Unlock()
	return true
}

// OpenWindows hands the window out: any goroutine may fill it.
func OpenWindows() *openWindow { return &openWindow{room: 1 << 20} }

// The window of PushConn is filled on the read loop and also by Push, on
// the caller's goroutine: two goroutines fill it.

type pushWindow struct {
	mu    sync.RWMutex
	room  int
	taken int
}

func (w *pushWindow) Fill(n int) bool {
	w.mu.RLock()
	room := w.room
	w.mu.RUnlock()
	if room < n {
		return false
	}
	w.mu.Lock() // want `w.mu is locked again for writing after RUnlock`
	w.room = room - n
	w.taken += n
	w.mu.Unlock()
	return true
}

type PushConn struct {
	win    *pushWindow
	chunks chan int
}

func DialPush() *PushConn {
	c := &PushConn{win: &pushWindow{room: 1 << 20}, chunks: make(chan int)}
	go c.readLoop()
	return c
}

func (c *PushConn) readLoop() {
	for n := range c.chunks {
		if !c.win.Fill(n) {
			return
		}
	}
}

// Push fills the window on the caller's goroutine.
func (c *PushConn) Push(n int) bool { return c.win.Fill(n) }

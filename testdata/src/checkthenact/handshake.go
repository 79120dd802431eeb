package checkthenact

import (
	"encoding/binary"
	"io"
	"sync"
)

// hello is what a peer announces when a connection opens.
type hello struct {
	version  uint32
	features uint64
}

// Link is one connection to a peer. Its handshake negotiates the
// protocol version: the hello is decoded with the version known so far,
// and the version is then set to the one the peer answers. Readers on
// other goroutines ask Version under mu.
type Link struct {
	mu       sync.Mutex
	version  uint32
	features uint64
	inbound  bool
	conn     io.ReadWriter
	// framing is the handshake's own: written with no lock held, so
	// readHello, which sets it, runs one call at a time.
	framing int
}

// Version is the protocol version currently agreed on.
func (l *Link) Version() uint32 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.version
}

func (l *Link) readFrame(version uint32) (hello, error) {
	var buf [12]byte
	if _, err := io.ReadFull(l.conn, buf[:]); err != nil {
		return hello{}, err
	}
	h := hello{version: binary.BigEndian.Uint32(buf[:4]), features: binary.BigEndian.Uint64(buf[4:])}
	if version < 2 {
		h.features = 0 // version 1 had no feature bits
	}
	return h, nil
}

// readHello is the only function that changes the version, and it runs
// one call at a time; the handshakes that call it write the version only
// through it. The version it decoded with cannot change before it stores
// the peer's. Silent.
func (l *Link) readHello() error {
	h, err := l.readFrame(l.Version())
	if err != nil {
		return err
	}
	l.mu.Lock()
	l.version = h.version
	l.features = h.features
	l.mu.Unlock()
	l.framing = 2
	return nil
}

func (l *Link) acceptHandshake() error {
	if err := l.readHello(); err != nil {
		return err
	}
	_, err := l.conn.Write([]byte("welcome"))
	return err
}

func (l *Link) dialHandshake() error {
	if _, err := l.conn.Write([]byte("hello")); err != nil {
		return err
	}
	return l.readHello()
}

// Start runs the handshake on a goroutine of its own.
func (l *Link) Start() <-chan error {
	done := make(chan error, 1)
	go func() {
		if l.inbound {
			done <- l.acceptHandshake()
		} else {
			done <- l.dialHandshake()
		}
	}()
	return done
}

// Pinned is a Link whose version an operator may also pin, from any
// goroutine, while the handshake runs: the version readHello decoded
// with may be replaced before it stores its own.
type Pinned struct {
	mu       sync.Mutex
	version  uint32
	features uint64
	conn     io.Reader
	framing  int
}

func (p *Pinned) Version() uint32 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.version
}

// Pin fixes the version, whatever the handshake negotiates.
func (p *Pinned) Pin(version uint32) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.version = version
}

func (p *Pinned) readFrame(version uint32) (hello, error) {
	var buf [12]byte
	if _, err := io.ReadFull(p.conn, buf[:]); err != nil {
		return hello{}, err
	}
	h := hello{version: binary.BigEndian.Uint32(buf[:4]), features: binary.BigEndian.Uint64(buf[4:])}
	if version < 2 {
		h.features = 0
	}
	return h, nil
}

func (p *Pinned) readHello() error {
	h, err := p.readFrame(p.Version())
	if err != nil {
		return err
	}
	p.mu.Lock() // want `p.mu is locked again after the section that checked: the value written derives from h, read in an earlier section`
	p.version = h.version
	p.features = h.features
	p.mu.Unlock()
	p.framing = 2
	return nil
}

func (p *Pinned) Handshake() error { return p.readHello() }

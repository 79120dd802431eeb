package checkthenact

import (
	"errors"
	"slices"
	"sync"
)

// A media session takes the remote description once. The connection it
// sets in the same section is never cleared: a section that goes on only
// while it is still nil sees the codec list as the earlier section read
// it, since the codecs change only where the connection is set.

type iceConn struct{ remote string }

type mediaSession struct {
	mu     sync.Mutex
	codecs []string
	conn   *iceConn
}

func (m *mediaSession) localCodecs() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.codecs)
}

func commonCodecs(local, remote []string) []string {
	var common []string
	for _, c := range local {
		if slices.Contains(remote, c) {
			common = append(common, c)
		}
	}
	return common
}

// Configure intersects the remote codecs with the local ones read in an
// earlier section; the second section refuses to run twice.
func (m *mediaSession) Configure(remote string, remoteCodecs []string) error {
	common := commonCodecs(m.localCodecs(), remoteCodecs)
	if len(common) == 0 {
		return errors.New("no common codec")
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.conn != nil {
		return errors.New("remote description already configured")
	}
	m.codecs = common
	m.conn = &iceConn{remote: remote}
	return nil
}

// redialSession's Close clears the connection: a section that finds it
// nil may follow a close and another configure since the codecs were
// read.
type redialSession struct {
	mu     sync.Mutex
	codecs []string
	conn   *iceConn
}

func (m *redialSession) localCodecs() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.codecs)
}

func (m *redialSession) Configure(remote string, remoteCodecs []string) error {
	common := commonCodecs(m.localCodecs(), remoteCodecs)
	m.mu.Lock() // want `m.mu is locked again after the section that checked: the value written derives from common`
	defer m.mu.Unlock()
	if m.conn != nil {
		return errors.New("already dialed")
	}
	m.codecs = common
	m.conn = &iceConn{remote: remote}
	return nil
}

func (m *redialSession) Close() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.conn = nil
}

// presetSession lets the codecs be set without the connection: the
// connection is no latch for them.
type presetSession struct {
	mu     sync.Mutex
	codecs []string
	conn   *iceConn
}

func (m *presetSession) localCodecs() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.codecs)
}

func (m *presetSession) SetCodecs(codecs []string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.codecs = codecs
}

func (m *presetSession) Configure(remote string, remoteCodecs []string) error {
	common := commonCodecs(m.localCodecs(), remoteCodecs)
	m.mu.Lock() // want `m.mu is locked again after the section that checked: the value written derives from common`
	defer m.mu.Unlock()
	if m.conn != nil {
		return errors.New("already configured")
	}
	m.codecs = common
	m.conn = &iceConn{remote: remote}
	return nil
}

// adoptSession sets its connection to whatever it is handed, nil
// included: a store that may clear it is no latch.
type adoptSession struct {
	mu     sync.Mutex
	codecs []string
	conn   *iceConn
}

func (m *adoptSession) localCodecs() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.codecs)
}

func (m *adoptSession) Adopt(conn *iceConn) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.conn = conn
}

func (m *adoptSession) Configure(remote string, remoteCodecs []string) error {
	common := commonCodecs(m.localCodecs(), remoteCodecs)
	m.mu.Lock() // want `m.mu is locked again after the section that checked: the value written derives from common`
	defer m.mu.Unlock()
	if m.conn != nil {
		return errors.New("already configured")
	}
	m.codecs = common
	m.conn = &iceConn{remote: remote}
	return nil
}

// Package setup holds objects that are set up by a method of their own
// (Init, Initialize, Open with no argument but a context), which tests
// in one section whether that was done and does it in the next. The
// code that owns such an object calls its set-up method once, before
// sharing the object (or between its Close and the next use), never
// from two goroutines at once: nothing can make that test stale, and
// these are silent. The same shape in a method any caller may run at
// any time (Resume, a Register keyed by name, an Open that looks a name
// up) is reported, as is a set-up method acting on a lock that is not
// its receiver's.
package setup

import (
	"context"
	"errors"
	"sync"
)

// Monitor samples statistics while it is open.
type Monitor struct {
	mu   sync.Mutex
	done chan struct{}
}

func (m *Monitor) isOpen() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.done != nil
}

func (m *Monitor) Open() error {
	if m.isOpen() {
		return nil
	}
	m.mu.Lock()
	m.done = make(chan struct{})
	m.mu.Unlock()
	return nil
}

// Resume restarts sampling after a pause; callers do so from any
// goroutine, so two may both find it closed and the later one drops the
// channel the first made.
func (m *Monitor) Resume() {
	if m.isOpen() {
		return
	}
	m.mu.Lock() // want `m.mu is locked again after the section that checked: the write is decided by m.isOpen\(\)`
	m.done = make(chan struct{})
	m.mu.Unlock()
}

func (m *Monitor) Close() {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.done != nil {
		close(m.done)
		m.done = nil
	}
}

// Sampler is Monitor with its tests written inline: the set-up method
// stays silent, and Resume, which any goroutine may call, is reported.
// A channel made in the second section is not an equivalent of the one
// a racer made: whoever took that one waits on it, and Close closes only
// the channel left in the field.
type Sampler struct {
	mu   sync.Mutex
	done chan struct{}
}

func (s *Sampler) Open() error {
	s.mu.Lock()
	open := s.done != nil
	s.mu.Unlock()
	if open {
		return nil
	}
	s.mu.Lock()
	s.done = make(chan struct{})
	s.mu.Unlock()
	return nil
}

func (s *Sampler) Resume() {
	s.mu.Lock()
	open := s.done != nil
	s.mu.Unlock()
	if open {
		return
	}
	s.mu.Lock() // want `s.mu is locked again after the section that checked: s.done was missing in an earlier section, but another goroutine may have stored one since and this store replaces it`
	s.done = make(chan struct{})
	s.mu.Unlock()
}

func (s *Sampler) Stopped() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.done
}

func (s *Sampler) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.done != nil {
		close(s.done)
		s.done = nil
	}
}

type Config struct{ Servers []string }

type agent struct{ servers []string }

// Session negotiates media once it is initialised with its config.
type Session struct {
	mu    sync.Mutex
	agent *agent
	conf  Config
}

func (s *Session) Init(ctx context.Context, conf Config) error {
	s.mu.Lock()
	if s.agent != nil {
		s.mu.Unlock()
		return errors.New("session already initialised")
	}
	s.conf = conf
	s.mu.Unlock()

	a, err := dial(ctx, conf.Servers)
	if err != nil {
		return err
	}
	s.mu.Lock()
	s.agent = a
	s.mu.Unlock()
	return nil
}

func (s *Session) Initialize(ctx context.Context) error {
	s.mu.Lock()
	current := s.agent
	servers := s.conf.Servers
	s.mu.Unlock()
	if current != nil {
		return nil
	}
	a, err := dial(ctx, servers)
	if err != nil {
		return err
	}
	s.mu.Lock()
	s.agent = a
	s.mu.Unlock()
	return nil
}

// Redial replaces a lost agent; the keep-alive loop and every failed
// request call it, so two may both find it missing.
func (s *Session) Redial(ctx context.Context) error {
	s.mu.Lock()
	current := s.agent
	servers := s.conf.Servers
	s.mu.Unlock()
	if current != nil {
		return nil
	}
	a, err := dial(ctx, servers)
	if err != nil {
		return err
	}
	s.mu.Lock() // want `s.mu is locked again after the section that checked: current was missing in an earlier section`
	s.agent = a
	s.mu.Unlock()
	return nil
}

func dial(ctx context.Context, servers []string) (*agent, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return &agent{servers: servers}, nil
}

// Files caches what Open finds by name: any number of callers open
// files at once, so Open with a name is not a set-up method.
type Files struct {
	mu     sync.Mutex
	opened map[string]*File
}

type File struct{ name string }

func (f *Files) Open(name string) (*File, error) {
	f.mu.Lock()
	file, ok := f.opened[name]
	f.mu.Unlock()
	if ok {
		return file, nil
	}
	file = &File{name: name}
	f.mu.Lock() // want `f.mu is locked again after the section that checked: file was missing in an earlier section`
	f.opened[name] = file
	f.mu.Unlock()
	return file, nil
}

// A plugin's Init registers it in a table every plugin shares: the
// lock is not the plugin's own, and other plugins initialise at the
// same time.
var (
	pluginsMu sync.Mutex
	plugins   = map[string]*Plugin{}
)

type Plugin struct{ Name string }

func (p *Plugin) Init() error {
	pluginsMu.Lock()
	_, taken := plugins[p.Name]
	pluginsMu.Unlock()
	if taken {
		return errors.New("plugin name taken")
	}
	pluginsMu.Lock() // want `pluginsMu is locked again after the section that checked`
	plugins[p.Name] = p
	pluginsMu.Unlock()
	return nil
}

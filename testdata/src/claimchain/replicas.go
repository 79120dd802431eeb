// Package claimchain: a manager that looks a replica up while holding its
// own mutex and, in the same section, marks the name as being built
// (a claim map the mutex guards), builds the replica with the mutex
// released, registers it, and drops the mark. A second builder of the
// name finds the mark and waits; none can register the name between the
// lookup and the registration.
package claimchain

import "sync"

type replica struct {
	name  string
	peers []string
}

// registry is a directory of replicas by name, with a lock of its own.
type registry struct {
	mu    sync.RWMutex
	nodes map[string]*replica
}

func (r *registry) lookup(name string) *replica {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.nodes[name]
}

func (r *registry) register(n *replica) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.nodes[n.name] = n
}

type Manager struct {
	mu       sync.Mutex
	building map[string]chan struct{}
	reg      *registry
}

// Ensure returns the replica of the name, building it once.
func (m *Manager) Ensure(name string, peers []string) *replica {
	m.mu.Lock()
	for {
		ch, busy := m.building[name]
		if !busy {
			break
		}
		m.mu.Unlock()
		<-ch
		m.mu.Lock()
	}
	if n := m.reg.lookup(name); n != nil {
		m.mu.Unlock()
		return n
	}
	if m.building == nil {
		m.building = make(map[string]chan struct{})
	}
	done := make(chan struct{})
	m.building[name] = done
	m.mu.Unlock()

	n := &replica{name: name, peers: append([]string(nil), peers...)}
	m.reg.register(n)

	m.mu.Lock()
	delete(m.building, name)
	close(done)
	m.mu.Unlock()
	return n
}

// Sloppy takes the same claim, but its release drops the mark without the
// manager's mutex: a builder that held the mark when the lookup ran can
// let it go and register before this one tests for it.
type Sloppy struct {
	mu       sync.Mutex
	building map[string]bool
	unmark   sync.Mutex
	reg      *registry
}

func (m *Sloppy) Ensure(name string) *replica {
	m.mu.Lock()
	if m.building[name] {
		m.mu.Unlock()
		return nil
	}
	if n := m.reg.lookup(name); n != nil {
		m.mu.Unlock()
		return n
	}
	m.building[name] = true
	m.mu.Unlock()

	n := &replica{name: name}
	m.reg.register(n) // want `m.reg.mu is locked again for writing by m.reg.register after RUnlock`

	m.unmark.Lock()
	delete(m.building, name)
	m.unmark.Unlock()
	return n
}

// Late looks the replica up in one section of its mutex and marks the name
// in another: a builder can finish and register in between.
type Late struct {
	mu       sync.Mutex
	building map[string]bool
	reg      *registry
}

func (m *Late) Ensure(name string) *replica {
	m.mu.Lock()
	n := m.reg.lookup(name)
	m.mu.Unlock()
	if n != nil {
		return n
	}

	m.mu.Lock()
	if m.building[name] {
		m.mu.Unlock()
		return nil
	}
	m.building[name] = true
	m.mu.Unlock()

	n = &replica{name: name}
	m.reg.register(n) // want `m.reg.mu is locked again for writing by m.reg.register after RUnlock`

	m.mu.Lock()
	delete(m.building, name)
	m.mu.Unlock()
	return n
}

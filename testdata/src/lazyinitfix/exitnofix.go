package lazyinitfix

import "fmt"

// Early ways out of the read section that cannot be repeated by text.
// The workers stored are started after the store, so keeping the racer's
// entry and going on (keepfound.go) is no fix either.

// Describe builds its error with a call: under the deferred Unlock it
// would be built with the write lock held.
func (b *Broker) Describe() error {
	b.mu.RLock()
	if b.running {
		b.mu.RUnlock()
		return fmt.Errorf("broker on %s already running", b.addr)
	}
	b.mu.RUnlock()
	l := listen(b.addr)
	b.mu.Lock() // want `b.mu is locked again for writing after RUnlock: the write is decided by b.running`
	defer b.mu.Unlock()
	b.listener = l
	b.running = true
	return nil
}

// Reserve changes the name it tested between the sections: the test made
// again would ask about another name.
func (p *Pool) Reserve(id string) *Worker {
	p.mu.RLock()
	if w, ok := p.workers[id]; ok {
		p.mu.RUnlock()
		return w
	}
	p.mu.RUnlock()
	w := &Worker{id: id}
	id = id + "-reserved"
	p.mu.Lock() // want `p.mu is locked again for writing after RUnlock: w was missing`
	p.workers[id] = w
	p.mu.Unlock()
	go w.Run()
	return w
}

// Log does more than leave on a hit (it logs): the way out is not
// copied under the lock.
func (p *Pool) Log(id string) *Worker {
	p.mu.RLock()
	if w, ok := p.workers[id]; ok {
		p.mu.RUnlock()
		fmt.Println("hit", id)
		return w
	}
	p.mu.RUnlock()
	w := &Worker{id: id}
	p.mu.Lock() // want `p.mu is locked again for writing after RUnlock: w was missing`
	p.workers[id] = w
	p.mu.Unlock()
	go w.Run()
	return w
}

// Nested takes the write lock inside a branch of its own: the test and
// the Lock are not in one block.
func (p *Pool) Nested(id string, create bool) *Worker {
	p.mu.RLock()
	if w, ok := p.workers[id]; ok {
		p.mu.RUnlock()
		return w
	}
	p.mu.RUnlock()
	w := &Worker{id: id}
	if create {
		p.mu.Lock() // want `p.mu is locked again for writing after RUnlock: w was missing`
		p.workers[id] = w
		p.mu.Unlock()
		go w.Run()
	}
	return w
}

// Count reads the size into a local in the read section and tests the
// local: the test made again would test the size read then.
func (r *Registry) Count(name string) error {
	r.mu.RLock()
	n := len(r.names)
	if n >= r.limit {
		r.mu.RUnlock()
		return errFull
	}
	r.mu.RUnlock()
	r.mu.Lock() // want `r.mu is locked again for writing after RUnlock: the write is decided by`
	r.names = append(r.names, name)
	r.mu.Unlock()
	return nil
}

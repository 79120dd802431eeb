package lazyinitfix

import (
	"errors"
	"sync"
)

// Sections that leave early from inside the read section: the fix tests
// again, after the write Lock, what the read section tested, and leaves
// the same way (releasing the write lock, or under a deferred Unlock
// only leaving).

type Worker struct{ id string }

func (w *Worker) Run() {}

type Pool struct {
	mu      sync.RWMutex
	workers map[string]*Worker
}

// Start starts the worker it stored. Keeping the racer's entry and going
// on would start that one twice; leaving as the read section does hands
// back the racer's worker, as a hit would, and starts nothing.
func (p *Pool) Start(id string) *Worker {
	p.mu.RLock()
	if w, ok := p.workers[id]; ok {
		p.mu.RUnlock()
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

type token struct {
	value   string
	expires int64
}

// Tokens refreshes an entry that has expired as well as a missing one.
// Keeping whatever entry is found would keep an expired token; the test
// made again keeps only a fresh one.
type Tokens struct {
	mu    sync.RWMutex
	byKey map[string]*token
}

func (t *Tokens) Get(key string, now int64) *token {
	t.mu.RLock()
	if tok, ok := t.byKey[key]; ok && tok.expires > now {
		t.mu.RUnlock()
		return tok
	}
	t.mu.RUnlock()
	tok := &token{value: key, expires: now + 60}
	t.mu.Lock() // want `t.mu is locked again for writing after RUnlock: tok was missing or stale`
	t.byKey[key] = tok
	t.mu.Unlock()
	return tok
}

type listener struct{ addr string }

func listen(addr string) *listener { return &listener{addr: addr} }

// Broker starts once: a second Connect that passed the running test
// before the first set it must not replace the listener.
type Broker struct {
	mu       sync.RWMutex
	running  bool
	addr     string
	listener *listener
}

func (b *Broker) Connect() error {
	b.mu.RLock()
	if b.running {
		b.mu.RUnlock()
		return nil
	}
	b.mu.RUnlock()

	l := listen(b.addr)
	b.mu.Lock() // want `b.mu is locked again for writing after RUnlock: the write is decided by b.running`
	defer b.mu.Unlock()
	b.listener = l
	b.running = true
	return nil
}

var errFull = errors.New("registry full")

// Registry admits up to limit names; the bound is tested in the read
// section, which leaves with an error the caller keeps.
type Registry struct {
	mu    sync.RWMutex
	names []string
	limit int
}

func (r *Registry) Admit(name string) error {
	r.mu.RLock()
	if len(r.names) >= r.limit {
		r.mu.RUnlock()
		return errFull
	}
	r.mu.RUnlock()
	r.mu.Lock() // want `r.mu is locked again for writing after RUnlock: the write is decided by r.names`
	r.names = append(r.names, name)
	r.mu.Unlock()
	return nil
}

// Warm fills a batch of keys; one already there is skipped with
// continue, which the test made again under the write lock does too.
func (p *Pool) Warm(ids []string) {
	for _, id := range ids {
		p.mu.RLock()
		if _, ok := p.workers[id]; ok {
			p.mu.RUnlock()
			continue
		}
		p.mu.RUnlock()
		w := &Worker{id: id}
		p.mu.Lock() // want `p.mu is locked again for writing after RUnlock: p.workers\[id\] was missing`
		p.workers[id] = w
		p.mu.Unlock()
	}
}

type Decoder struct{ schema string }

func compile(schema string) (*Decoder, error) {
	if schema == "" {
		return nil, errors.New("empty schema")
	}
	return &Decoder{schema: schema}, nil
}

type Decoders struct {
	mu       sync.RWMutex
	bySchema map[string]*Decoder
}

// For looks the decoder up in the if statement, releasing the read lock
// in both branches, and compiles a missing one outside the lock.
func (d *Decoders) For(schema string) (*Decoder, error) {
	d.mu.RLock()
	if dec, ok := d.bySchema[schema]; ok {
		d.mu.RUnlock()
		return dec, nil
	}
	d.mu.RUnlock()

	dec, err := compile(schema)
	if err != nil {
		return nil, err
	}
	d.mu.Lock() // want `d.mu is locked again for writing after RUnlock: dec was missing`
	d.bySchema[schema] = dec
	d.mu.Unlock()
	return dec, nil
}

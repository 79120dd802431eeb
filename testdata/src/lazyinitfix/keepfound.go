package lazyinitfix

import (
	"errors"
	"sync"
)

// Where the early return cannot be repeated under the write lock (the
// lookup sits in the if statement itself, or the miss is handled inside
// the branch), the store keeps what a racer stored since and the caller
// goes on with it.

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
// in both branches.
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

type Pattern struct{ src string }

func (p *Pattern) Match(s string) bool { return p.src == s }

var (
	patternsMu sync.RWMutex
	patterns   = map[string]*Pattern{}
)

// Match fills the cache inside the branch that missed and uses the
// pattern after it.
func Match(src, s string) bool {
	patternsMu.RLock()
	p, ok := patterns[src]
	patternsMu.RUnlock()
	if !ok {
		p = &Pattern{src: src}
		patternsMu.Lock() // want `patternsMu is locked again for writing after RUnlock: p was missing`
		patterns[src] = p
		patternsMu.Unlock()
	}
	return p.Match(s)
}

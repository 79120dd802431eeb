package lazyinitfix

import "sync"

// Setters written out only where the text means the same at the call:
// each of these is reported, without a fix.

// Counted's setter also counts the store: more than one assignment.
type Counted struct {
	mu     sync.RWMutex
	byName map[string]*Codec
	stores int
}

func (c *Counted) put(name string, codec *Codec) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.byName[name] = codec
	c.stores++
}

func (c *Counted) Get(name string) *Codec {
	c.mu.RLock()
	codec, ok := c.byName[name]
	c.mu.RUnlock()
	if ok {
		return codec
	}
	codec = &Codec{name: name}
	c.put(name, codec) // want `c.mu is locked again for writing by c.put after RUnlock: codec was missing under the read lock`
	return codec
}

// Built hands the setter a value made in the call: written out, the
// constructor would run under the lock, and not at all on a re-check's
// way out.
type Built struct {
	mu     sync.RWMutex
	byName map[string]*Codec
}

func (b *Built) set(name string, codec *Codec) {
	b.mu.Lock()
	b.byName[name] = codec
	b.mu.Unlock()
}

func newCodec(name string) *Codec { return &Codec{name: name} }

func (b *Built) Get(name string) *Codec {
	b.mu.RLock()
	codec, ok := b.byName[name]
	b.mu.RUnlock()
	if ok {
		return codec
	}
	b.set(name, newCodec(name)) // want `b.mu is locked again for writing by b.set after RUnlock: codec was missing under the read lock`
	return b.Get(name)
}

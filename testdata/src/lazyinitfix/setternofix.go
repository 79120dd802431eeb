package lazyinitfix

import (
	"log"
	"sync"
)

// Setters written out only where the text means the same at the call:
// each of these is reported, without a fix.

// Logged's setter also logs the store: a call, which written out would
// run under the caller's lock.
type Logged struct {
	mu     sync.RWMutex
	byName map[string]*Codec
}

func (l *Logged) put(name string, codec *Codec) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.byName[name] = codec
	log.Printf("codec %s stored", name)
}

func (l *Logged) Get(name string) *Codec {
	l.mu.RLock()
	codec, ok := l.byName[name]
	l.mu.RUnlock()
	if ok {
		return codec
	}
	codec = &Codec{name: name}
	l.put(name, codec) // want `l.mu is locked again for writing by l.put after RUnlock: codec was missing under the read lock`
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

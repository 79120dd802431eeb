// Package startup holds state filled while a program starts: registries
// filled by init functions, objects restored by their constructor before
// anyone else can see them. Nothing runs beside that work, so a lookup in
// one section and a store in the next cannot be raced; the same code
// reached after start-up can.
package startup

import (
	"errors"
	"sync"
)

type Codec interface {
	Encode(v any) ([]byte, error)
}

type jsonCodec struct{}

func (jsonCodec) Encode(any) ([]byte, error) { return nil, nil }

type gobCodec struct{}

func (gobCodec) Encode(any) ([]byte, error) { return nil, nil }

var (
	codecsMu sync.RWMutex
	codecs   = map[string]Codec{}
)

func codecFor(name string) (Codec, bool) {
	codecsMu.RLock()
	defer codecsMu.RUnlock()
	c, ok := codecs[name]
	return c, ok
}

// registerCodec runs only from init: package initialisation is one
// goroutine, and no other package can reach codecs before it ends.
func registerCodec(name string, c Codec) error {
	if _, dup := codecFor(name); dup {
		return errors.New("codec registered twice: " + name)
	}
	codecsMu.Lock()
	codecs[name] = c
	codecsMu.Unlock()
	return nil
}

func registerDefaults() {
	_ = registerCodec("gob", gobCodec{})
}

func init() {
	_ = registerCodec("json", jsonCodec{})
	registerDefaults()
}

// Marshal is the run-time reader.
func Marshal(name string, v any) ([]byte, error) {
	c, ok := codecFor(name)
	if !ok {
		return nil, errors.New("no codec " + name)
	}
	return c.Encode(v)
}

var (
	formatsMu sync.RWMutex
	formats   = map[string]Codec{}
)

// addFormat is called from init and from AddFormat, at run time, by any
// goroutine: two callers can both find the name free and both store.
func addFormat(name string, c Codec) error {
	formatsMu.RLock()
	_, dup := formats[name]
	formatsMu.RUnlock()
	if dup {
		return errors.New("format registered twice: " + name)
	}
	formatsMu.Lock() // want `formatsMu is locked again for writing after RUnlock: formats\[name\] was missing under the read lock`
	formats[name] = c
	formatsMu.Unlock()
	return nil
}

func init() {
	_ = addFormat("json", jsonCodec{})
}

func AddFormat(name string, c Codec) error { return addFormat(name, c) }

package lazyinitfix

import (
	"errors"
	"strings"
	"sync"
)

// Codec is what a schema registry hands back for a version.
type Codec struct {
	name string
}

// Codecs caches codecs by version, filled through a setter that only
// locks around the store.
type Codecs struct {
	lock    sync.RWMutex
	byVer   map[string]*Codec
	fetches int
	fetch   func(string) (*Codec, error)
}

func (c *Codecs) add(ver string, codec *Codec) {
	c.lock.Lock()
	defer c.lock.Unlock()
	c.byVer[ver] = codec
}

// Get fills a miss through add: the fix writes add out at the call, with
// the lookup again first, so the codec another caller stored meanwhile is
// the one kept and returned.
func (c *Codecs) Get(ver string) (*Codec, error) {
	key := strings.ToLower(ver)
	c.lock.RLock()
	codec, ok := c.byVer[key]
	c.lock.RUnlock()
	if ok {
		return codec, nil
	}
	codec, err := c.fetch(key)
	if err != nil {
		return nil, err
	}
	c.add(key, codec) // want `c.lock is locked again for writing by c.add after RUnlock: codec was missing under the read lock`
	return codec, nil
}

// Plugins registers each name once, through a setter that releases
// without defer.
type Plugins struct {
	mu     sync.RWMutex
	byName map[string]func()
}

var errRegistered = errors.New("plugin already registered")

func (p *Plugins) set(name string, run func()) {
	p.mu.Lock()
	p.byName[name] = run
	p.mu.Unlock()
}

// Register leaves inside the read section when the name is taken: the
// fix tests that again where the setter, written out, takes the write
// lock.
func (p *Plugins) Register(name string, run func()) error {
	p.mu.RLock()
	if _, ok := p.byName[name]; ok {
		p.mu.RUnlock()
		return errRegistered
	}
	p.mu.RUnlock()
	p.set(name, run) // want `p.mu is locked again for writing by p.set after RUnlock: p.byName\[name\] was missing under the read lock`
	return nil
}

// Counted's setter also counts the store: every write of its body is
// written out.
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

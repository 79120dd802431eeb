package syncmap

import (
	"io/fs"
	"os"
	"sync"
)

type encodeFunc func(v any) []byte

// Encoders looks an encoder up, and on a miss puts an indirect one in
// with LoadOrStore before building the real one, which it then stores
// over its own placeholder: the LoadOrStore is the decision that counts.
// Silent.
type Encoders struct {
	byType sync.Map // string -> encodeFunc
}

func (e *Encoders) For(typ string, build func() encodeFunc) encodeFunc {
	if f, ok := e.byType.Load(typ); ok {
		return f.(encodeFunc)
	}
	var once sync.Once
	var real encodeFunc
	get := func() encodeFunc { once.Do(func() { real = build() }); return real }
	f, loaded := e.byType.LoadOrStore(typ, encodeFunc(func(v any) []byte { return get()(v) }))
	if loaded {
		return f.(encodeFunc)
	}
	e.byType.Store(typ, get())
	return get()
}

// Vars sets a value whatever was there: the Load only spares new keys an
// allocation, and a new key is inserted with LoadOrStore. Silent.
type Vars struct {
	m    sync.Map
	keys []string
	mu   sync.Mutex
}

func (v *Vars) Set(key string, val any) {
	if _, ok := v.m.Load(key); !ok {
		if _, dup := v.m.LoadOrStore(key, val); !dup {
			v.mu.Lock()
			v.keys = append(v.keys, key)
			v.mu.Unlock()
			return
		}
	}
	v.m.Store(key, val)
}

// Certs replaces a stale or missing entry with Swap and looks at what it
// replaced: it means to overwrite a racer's entry. Silent.
type Certs struct {
	byHost sync.Map // string -> *cert
	fresh  func(*cert) bool
	issued int
}

type cert struct{ der []byte }

func (c *Certs) Get(host string, issue func() *cert) *cert {
	if v, ok := c.byHost.Load(host); ok && c.fresh(v.(*cert)) {
		return v.(*cert)
	}
	crt := issue()
	if _, present := c.byHost.Swap(host, crt); !present {
		c.issued++
	}
	return crt
}

// Mounts falls back to the default file system for the default key and
// remembers it: every racer stores the same package-level value, set
// once at initialisation. Silent.
type Mounts struct {
	byKey sync.Map // string -> fs.FS
}

var defaultFS fs.FS = os.DirFS("/")

func (m *Mounts) Get(key string) (fs.FS, bool) {
	v, ok := m.byKey.Load(key)
	if !ok {
		if key == "default" {
			m.byKey.Store(key, defaultFS)
			return defaultFS, true
		}
		return nil, false
	}
	return v.(fs.FS), true
}

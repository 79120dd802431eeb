package helpers

import "sync"

// The same stapler as a generic type: its methods are one function for
// every instance, and the rule asks whether any instance can leave the
// package.

type typedCache[V any] struct {
	mu    sync.RWMutex
	items map[string]V
}

func (c *typedCache[V]) Get(key string) (V, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	v, ok := c.items[key]
	return v, ok
}

func (c *typedCache[V]) Set(key string, v V) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.items[key] = v
}

// typedStapler[V] is the package's own, as stapler is: silent.
type typedStapler[V any] struct {
	cache *typedCache[V]
}

func (s *typedStapler[V]) Upsert(key string, fresh V) {
	if old, ok := s.cache.Get(key); ok {
		s.cache.Set(key, old)
		return
	}
	s.cache.Set(key, fresh)
}

type OCSPManager struct {
	mu      sync.Mutex
	stapler *typedStapler[*staple]
}

func NewOCSPManager() *OCSPManager {
	return &OCSPManager{stapler: &typedStapler[*staple]{cache: &typedCache[*staple]{items: map[string]*staple{}}}}
}

func (m *OCSPManager) Update(keys []string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, k := range keys {
		m.stapler.Upsert(k, &staple{})
	}
}

// openStapler's instances leave the package: an exported function
// returns one instance, so other packages may call Upsert on it without
// the manager's lock, and the manager's own instance is the same method.
// Reported.
type openStapler[V any] struct {
	cache *typedCache[V]
}

func NewByteStapler() *openStapler[[]byte] {
	return &openStapler[[]byte]{cache: &typedCache[[]byte]{items: map[string][]byte{}}}
}

func (s *openStapler[V]) Upsert(key string, fresh V) {
	if old, ok := s.cache.Get(key); ok {
		s.cache.Set(key, old) // want `s.cache.mu is locked again for writing by s.cache.Set after RUnlock: the value written derives from old`
		return
	}
	s.cache.Set(key, fresh) // want `s.cache.mu is locked again for writing by s.cache.Set after RUnlock`
}

type OpenManager struct {
	mu      sync.Mutex
	stapler *openStapler[*staple]
}

func (m *OpenManager) Update(keys []string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, k := range keys {
		m.stapler.Upsert(k, &staple{})
	}
}

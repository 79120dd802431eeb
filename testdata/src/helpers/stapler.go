package helpers

import "sync"

// staleCache is a self-locking cache: each call is its own section.
type staleCache struct {
	mu    sync.RWMutex
	items map[string]*staple
}

type staple struct{ der []byte }

func (c *staleCache) Get(key string) (*staple, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	s, ok := c.items[key]
	return s, ok
}

func (c *staleCache) Set(key string, s *staple) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.items[key] = s
}

// stapler is the package's own: no exported function hands one out, no
// exported field holds one, and it is never put in an interface. Its
// exported methods are called only where the package calls them.
type stapler struct {
	cache *staleCache
}

func newStapler() *stapler { return &stapler{cache: &staleCache{items: map[string]*staple{}}} }

// Upsert keeps an entry or makes one: Get then Set, two sections.
func (s *stapler) Upsert(key string) {
	if old, ok := s.cache.Get(key); ok {
		s.cache.Set(key, old)
		return
	}
	s.cache.Set(key, &staple{})
}

// TLSManager calls Upsert only while holding its own lock, over both of
// Upsert's sections: silent.
type TLSManager struct {
	mu      sync.Mutex
	stapler *stapler
}

func NewTLSManager() *TLSManager { return &TLSManager{stapler: newStapler()} }

func (m *TLSManager) Update(keys []string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, k := range keys {
		m.stapler.Upsert(k)
	}
}

// sharedStapler has the same method, but an exported function hands it
// out: other packages may call Upsert without the manager's lock.
type sharedStapler struct {
	cache *staleCache
}

func NewSharedStapler() *sharedStapler {
	return &sharedStapler{cache: &staleCache{items: map[string]*staple{}}}
}

func (s *sharedStapler) Upsert(key string) {
	if old, ok := s.cache.Get(key); ok {
		s.cache.Set(key, old) // want `s.cache.mu is locked again for writing by s.cache.Set after RUnlock: the value written derives from old`
		return
	}
	s.cache.Set(key, &staple{}) // want `s.cache.mu is locked again for writing by s.cache.Set after RUnlock`
}

type SharedManager struct {
	mu      sync.Mutex
	stapler *sharedStapler
}

func (m *SharedManager) Update(keys []string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, k := range keys {
		m.stapler.Upsert(k)
	}
}

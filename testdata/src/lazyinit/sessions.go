// Package lazyinit holds caches filled on first use, wrongly (no re-check
// under the write lock) and rightly.
package lazyinit

import (
	"math/rand"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"
)

type Session struct {
	ID    string
	state map[string]string
}

func newSession(id string) *Session { return &Session{ID: id, state: map[string]string{}} }

type Sessions struct {
	mu       sync.RWMutex
	sessions map[string]*Session
}

// Get hands back a new session on a miss; two callers racing on one id get
// different sessions, and one of them is lost from the map.
func (c *Sessions) Get(id string) *Session {
	c.mu.RLock()
	s, ok := c.sessions[id]
	c.mu.RUnlock()
	if ok {
		return s
	}
	s = newSession(id)
	c.mu.Lock() // want `c.mu is locked again for writing after RUnlock: s was missing under the read lock, but another goroutine may have stored one since`
	c.sessions[id] = s
	c.mu.Unlock()
	return s
}

// GetDeferred is the same with a deferred unlock and an error result.
func (c *Sessions) GetDeferred(id string) (*Session, error) {
	c.mu.RLock()
	s := c.sessions[id]
	c.mu.RUnlock()
	if s != nil {
		return s, nil
	}
	s = newSession(id)
	c.mu.Lock() // want `c.mu is locked again for writing after RUnlock: s was missing`
	defer c.mu.Unlock()
	c.sessions[id] = s
	return s, nil
}

// GetChecked re-checks under the write lock (double-checked locking).
func (c *Sessions) GetChecked(id string) *Session {
	c.mu.RLock()
	s, ok := c.sessions[id]
	c.mu.RUnlock()
	if ok {
		return s
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if s, ok := c.sessions[id]; ok {
		return s
	}
	s = newSession(id)
	c.sessions[id] = s
	return s
}

// GetNil re-reads and fills only when still empty.
func (c *Sessions) GetNil(id string) *Session {
	c.mu.RLock()
	s := c.sessions[id]
	c.mu.RUnlock()
	if s != nil {
		return s
	}
	c.mu.Lock()
	s = c.sessions[id]
	if s == nil {
		s = newSession(id)
		c.sessions[id] = s
	}
	c.mu.Unlock()
	return s
}

// GetOnce holds the write lock throughout: one section, nothing stale.
func (c *Sessions) GetOnce(id string) *Session {
	c.mu.Lock()
	defer c.mu.Unlock()
	s, ok := c.sessions[id]
	if !ok {
		s = newSession(id)
		c.sessions[id] = s
	}
	return s
}

// Len only reads.
func (c *Sessions) Len() int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return len(c.sessions)
}

// Canon memoises a pure function of the key into a map of strings: two
// racing callers compute and store the same string.
type Canon struct {
	mu    sync.RWMutex
	names map[string]string
}

func (c *Canon) Name(raw string) string {
	c.mu.RLock()
	n, ok := c.names[raw]
	c.mu.RUnlock()
	if ok {
		return n
	}
	n = strings.ToLower(strings.TrimSpace(raw))
	c.mu.Lock()
	c.names[raw] = n
	c.mu.Unlock()
	return n
}

// Tokens memoises no function of the key: a random token drawn on first
// use. Two first uses that both miss draw two tokens; the first caller
// hands out one the map no longer holds, and later lookups answer the
// other. Canon's shape with a draw instead of a computation.
type Tokens struct {
	mu     sync.RWMutex
	tokens map[string]int64
}

func (c *Tokens) Token(user string) int64 {
	c.mu.RLock()
	t, ok := c.tokens[user]
	c.mu.RUnlock()
	if ok {
		return t
	}
	t = rand.Int63()
	c.mu.Lock() // want `c.mu is locked again for writing after RUnlock`
	c.tokens[user] = t
	c.mu.Unlock()
	return t
}

// Handles memoises a fresh id per user: uuid.NewString draws a new one at
// each call, so Tokens' race with an id generator instead of math/rand.
type Handles struct {
	mu      sync.RWMutex
	handles map[string]string
}

func (c *Handles) Handle(user string) string {
	c.mu.RLock()
	h, ok := c.handles[user]
	c.mu.RUnlock()
	if ok {
		return h
	}
	h = uuid.NewString()
	c.mu.Lock() // want `c.mu is locked again for writing after RUnlock`
	c.handles[user] = h
	c.mu.Unlock()
	return h
}

// Names memoises a name-based uuid of the key, a function of it: two
// racing callers store the same string, as in Canon.
type Names struct {
	mu    sync.RWMutex
	names map[string]string
}

func (c *Names) Name(key string) string {
	c.mu.RLock()
	n, ok := c.names[key]
	c.mu.RUnlock()
	if ok {
		return n
	}
	n = uuid.NewSHA1(uuid.NameSpaceURL, []byte(key)).String()
	c.mu.Lock()
	c.names[key] = n
	c.mu.Unlock()
	return n
}

// Widths memoises an int.
type Widths struct {
	mu     sync.RWMutex
	widths map[rune]int
}

func (w *Widths) Width(r rune) int {
	w.mu.RLock()
	n, ok := w.widths[r]
	w.mu.RUnlock()
	if ok {
		return n
	}
	n = 1
	if r > 0x1100 {
		n = 2
	}
	w.mu.Lock()
	w.widths[r] = n
	w.mu.Unlock()
	return n
}

// Resolver caches lookups in a struct value and checks freshness again
// under the write lock; on failure it extends the entry it re-read and
// stores it back. Double-checked locking through a struct local whose
// field is assigned later: silent.
type resolved struct {
	addrs []string
	until time.Time
	hits  int
}

type Resolver struct {
	mu    sync.RWMutex
	cache map[string]resolved
}

func (r *Resolver) Lookup(name string, lookup func(string) ([]string, error), grace time.Duration) []string {
	r.mu.RLock()
	e := r.cache[name]
	r.mu.RUnlock()
	if time.Now().Before(e.until) {
		return e.addrs
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	e = r.cache[name]
	if time.Now().Before(e.until) {
		return e.addrs
	}
	addrs, err := lookup(name)
	if err != nil {
		if grace > 0 {
			e.until = time.Now().Add(grace)
			r.cache[name] = e
			return e.addrs
		}
		return nil
	}
	if e.until.IsZero() && len(r.cache) >= 100 {
		for k := range r.cache {
			delete(r.cache, k)
			break
		}
	}
	r.cache[name] = resolved{addrs: addrs, until: time.Now().Add(time.Minute)}
	return addrs
}

// Hit counts a use on the copy of the entry it read under the read lock
// and stores that copy back: an update made in between is lost. Reported.
func (r *Resolver) Hit(name string) {
	r.mu.RLock()
	e := r.cache[name]
	r.mu.RUnlock()
	e.hits++
	r.mu.Lock() // want `r.mu is locked again for writing after RUnlock: the value written derives from e`
	r.cache[name] = e
	r.mu.Unlock()
}

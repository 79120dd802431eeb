// Package syncmap holds check-then-act across the calls of a sync.Map:
// each call is a critical section of the map's own lock.
package syncmap

import (
	"regexp"
	"sync"
)

// Limiters hands each tenant a token bucket; a miss found by Load and
// filled by Store lets two callers both create one and the second replace
// the first, whose tokens were already being spent. Reported.
type Limiters struct {
	byTenant sync.Map // string -> *bucket
}

type bucket struct {
	tokens chan struct{}
}

func newBucket(n int) *bucket {
	b := &bucket{tokens: make(chan struct{}, n)}
	for range n {
		b.tokens <- struct{}{}
	}
	return b
}

func (l *Limiters) For(tenant string) *bucket {
	if b, ok := l.byTenant.Load(tenant); ok {
		return b.(*bucket)
	}
	b := newBucket(10)
	l.byTenant.Store(tenant, b) // want `l.byTenant.Store stores what l.byTenant.Load found missing`
	return b
}

// Patterns memoises compiled expressions: a racer that compiles the same
// one stores an equal value, as with a plain map (a value that holds no
// state to lose): silent.
type Patterns struct {
	compiled sync.Map // string -> *regexp.Regexp
}

func (p *Patterns) Get(expr string) (*regexp.Regexp, error) {
	if re, ok := p.compiled.Load(expr); ok {
		return re.(*regexp.Regexp), nil
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return nil, err
	}
	p.compiled.Store(expr, re)
	return re, nil
}

// Checked fills the miss with LoadOrStore and uses the entry that won:
// silent.
type Checked struct {
	compiled sync.Map
}

func (c *Checked) Get(expr string) (*regexp.Regexp, error) {
	if re, ok := c.compiled.Load(expr); ok {
		return re.(*regexp.Regexp), nil
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return nil, err
	}
	actual, _ := c.compiled.LoadOrStore(expr, re)
	return actual.(*regexp.Regexp), nil
}

// Serialised takes a mutex around both calls, as every writer of the map
// does: silent.
type Serialised struct {
	mu       sync.Mutex
	compiled sync.Map
}

func (s *Serialised) Get(expr string) *regexp.Regexp {
	if re, ok := s.compiled.Load(expr); ok {
		return re.(*regexp.Regexp)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if re, ok := s.compiled.Load(expr); ok {
		return re.(*regexp.Regexp)
	}
	re := regexp.MustCompile(expr)
	s.compiled.Store(expr, re)
	return re
}

// Counters adds to what Load found and stores the sum: an increment made
// in between is lost. Reported.
type Counters struct {
	hits sync.Map // string -> int
}

func (c *Counters) Hit(page string) {
	n := 0
	if v, ok := c.hits.Load(page); ok {
		n = v.(int)
	}
	c.hits.Store(page, n+1) // want `c.hits.Store writes a value derived from c.hits.Load`
}

// Swapped retries with CompareAndSwap until no one came in between:
// silent.
type Swapped struct {
	hits sync.Map
}

func (c *Swapped) Hit(page string) {
	for {
		v, ok := c.hits.Load(page)
		if !ok {
			if _, loaded := c.hits.LoadOrStore(page, 1); !loaded {
				return
			}
			continue
		}
		if c.hits.CompareAndSwap(page, v, v.(int)+1) {
			return
		}
	}
}

// Logged only logs what Load found; the Store is unconditional: silent.
type Logged struct {
	last sync.Map
	log  func(string, ...any)
}

func (l *Logged) Set(k, v string) {
	if old, ok := l.last.Load(k); ok {
		l.log("replacing %v", old)
	}
	l.last.Store(k, v)
}

// Slugs memoises a string worked out from the key alone: racers store
// equal strings. Silent.
type Slugs struct {
	byTitle sync.Map
}

func (s *Slugs) Slug(title string) string {
	if v, ok := s.byTitle.Load(title); ok {
		return v.(string)
	}
	slug := title + "-" + title
	s.byTitle.Store(title, slug)
	return slug
}

// Tallies starts a count with the caller's amount on a miss and adds it
// on a hit: one race, reported once, on the sum (whose advice covers the
// first value); the start is not also a claim.
type Tallies struct {
	byName sync.Map
}

func (t *Tallies) Add(name string, n int64) {
	if v, ok := t.byName.Load(name); !ok {
		t.byName.Store(name, n)
	} else {
		t.byName.Store(name, v.(int64)+n) // want `t.byName.Store writes a value derived from t.byName.Load`
	}
}

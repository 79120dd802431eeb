// Package syncmap holds check-then-act across the calls of a sync.Map:
// each call is a critical section of the map's own lock.
package syncmap

import (
	"regexp"
	"sync"
)

// Patterns compiles each expression once, it says; a miss found by Load
// and filled by Store lets two callers both compile and the second
// replace the first's entry. Reported.
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
	p.compiled.Store(expr, re) // want `p.compiled.Store stores what p.compiled.Load found missing`
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

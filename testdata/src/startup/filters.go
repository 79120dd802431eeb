package startup

import (
	"strings"
	"sync"
)

// tagSet maps each tag to a channel closed when the tag is retired; it
// is safe for concurrent use.
type tagSet struct {
	mu   sync.RWMutex
	tags map[string]chan struct{}
}

func newTagSet() tagSet { return tagSet{tags: map[string]chan struct{}{}} }

func (s *tagSet) get(t string) (chan struct{}, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	ch, ok := s.tags[t]
	return ch, ok
}

func (s *tagSet) add(t string) {
	s.mu.Lock()
	s.tags[t] = make(chan struct{})
	s.mu.Unlock()
}

type Filter struct {
	Expr string
	Tags tagSet
}

var (
	filtersMu sync.Mutex
	filters   []*Filter
)

// ParseFilter fills the set of a filter it has just made and hands it out
// only when it returns: no one else can add to the set in between. Silent.
func ParseFilter(expr string) *Filter {
	f := &Filter{Expr: expr, Tags: newTagSet()}
	for _, t := range strings.Split(expr, "||") {
		if _, ok := f.Tags.get(t); !ok {
			f.Tags.add(t)
		}
	}
	return f
}

// RegisterFilter publishes the filter first and fills it afterwards: a
// reader that has it may add a tag in the gap. Reported.
func RegisterFilter(expr string) *Filter {
	f := &Filter{Expr: expr, Tags: newTagSet()}
	filtersMu.Lock()
	filters = append(filters, f)
	filtersMu.Unlock()
	for _, t := range strings.Split(expr, "||") {
		if _, ok := f.Tags.get(t); !ok {
			f.Tags.add(t) // want `f.Tags.mu is locked again for writing by f.Tags.add after RUnlock`
		}
	}
	return f
}

// Retag fills a set it was handed through a variable it later clears in a
// closure: the variable is local, the set it points to is not. Reported.
func Retag(shared *tagSet, tags []string) {
	cur := shared
	for _, t := range tags {
		if _, ok := cur.get(t); !ok {
			cur.add(t) // want `cur.mu is locked again for writing by cur.add after RUnlock`
		}
	}
	func() { cur = nil }()
	_ = cur
}

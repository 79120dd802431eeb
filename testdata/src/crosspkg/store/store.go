// Package store is a set whose methods lock internally; package admit
// uses it from another package, through the summaries store exports.
package store

import "sync"

type Set struct {
	mu    sync.Mutex
	items map[string]bool
}

func New() *Set { return &Set{items: map[string]bool{}} }

func (s *Set) Len() int { // want Len:`locks arg0.mu; returns arg0.items read under arg0.mu`
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.items)
}

func (s *Set) Add(k string) { // want Add:`locks arg0.mu; writes arg0.items\[...\] under arg0.mu`
	s.mu.Lock()
	s.items[k] = true
	s.mu.Unlock()
}

// AddIfRoom checks and adds in one section.
func (s *Set) AddIfRoom(k string, limit int) bool { // want AddIfRoom:`locks arg0.mu; writes arg0.items\[...\] under arg0.mu`
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.items) >= limit {
		return false
	}
	s.items[k] = true
	return true
}

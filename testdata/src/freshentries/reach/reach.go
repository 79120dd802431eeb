// Package reach answers which relations of a schema definition can reach
// a subject, memoising the graph built for each relation. A Reachability
// locks its memo, but every Reachability in the module is made for one
// request by Definition.Reachability and used by that request alone: the
// memo's check and fill, in a helper the exported methods share, cannot
// be raced. Only the driver, which sees the packages calling them, can
// tell; the exported methods are marked so that it can.
package reach

import (
	"slices"
	"sync"
)

type Definition struct {
	Name      string
	Relations map[string][]string // relation -> the relations it includes
}

type Reachability struct {
	def    *Definition
	mu     sync.RWMutex
	graphs map[string][]string
}

// Reachability is a constructor written as a method: a new object on
// every call, seen by no one yet.
func (d *Definition) Reachability() *Reachability {
	return &Reachability{def: d, graphs: make(map[string][]string)}
}

// Entrypoints lists the relations through which rel can be reached.
func (r *Reachability) Entrypoints(rel string) []string {
	return slices.Clone(r.graph(rel))
}

// Reaches reports whether rel reaches target.
func (r *Reachability) Reaches(rel, target string) bool {
	return slices.Contains(r.graph(rel), target)
}

// graph returns the memoised closure of rel, building it on a miss.
func (r *Reachability) graph(rel string) []string {
	r.mu.RLock()
	g, ok := r.graphs[rel]
	r.mu.RUnlock()
	if ok {
		return g
	}
	g = r.closure(rel, nil)
	r.mu.Lock() // want `r.mu is locked again for writing after RUnlock: g was missing under the read lock`
	r.graphs[rel] = g
	r.mu.Unlock()
	return g
}

func (r *Reachability) closure(rel string, seen []string) []string {
	if slices.Contains(seen, rel) {
		return seen
	}
	seen = append(seen, rel)
	for _, next := range r.def.Relations[rel] {
		seen = r.closure(next, seen)
	}
	return seen
}

package reentryinline

import (
	"strings"
	"sync"
)

// Getters that cannot be inlined by text: the fix gives each a variant
// for callers that hold the lock (Count and countLocked), and calls it.

type names struct {
	mu    sync.RWMutex
	list  []string
	upper bool
}

// Joined calls a function in its expression: inlined, the call would
// run in the caller's expression, whose other calls it may meet; the
// variant runs it where the getter did, under the same lock.
func (n *names) Joined() string {
	n.mu.RLock()
	defer n.mu.RUnlock()
	return strings.Join(n.list, ",")
}

// Count computes in more than one statement.
func (n *names) Count() int {
	n.mu.RLock()
	defer n.mu.RUnlock()
	c := len(n.list)
	return c
}

func (n *names) Describe() string {
	n.mu.RLock()
	defer n.mu.RUnlock()
	if n.Count() == 0 { // want `n.mu is held for reading here and n.Count takes its read lock again`
		return ""
	}
	return n.Joined() // want `n.mu is held for reading here and n.Joined takes its read lock again`
}

// Shadowed calls a getter whose expression names a package variable the
// caller shadows with a local: the expression would mean the local.
var limit = 10

func (n *names) overLimit() bool {
	n.mu.RLock()
	defer n.mu.RUnlock()
	return len(n.list) > limit
}

func (n *names) Shadowed() bool {
	n.mu.RLock()
	defer n.mu.RUnlock()
	limit := 3
	_ = limit
	return n.overLimit() // want `n.mu is held for reading here and n.overLimit takes its read lock again`
}

// Discarded calls the getter for nothing: an expression cannot stand as
// a statement.
func (n *names) Discarded() {
	n.mu.RLock()
	defer n.mu.RUnlock()
	n.Count() // want `n.mu is held for reading here and n.Count takes its read lock again`
}

// Computed passes an operand that calls: it would run under the lock,
// and the getter's parameter may be used more than once.
func (n *names) at(i int) string {
	n.mu.RLock()
	defer n.mu.RUnlock()
	return n.list[i]
}

func next() int { return 0 }

func (n *names) Computed() string {
	n.mu.RLock()
	defer n.mu.RUnlock()
	return n.at(next()) // want `n.mu is held for reading here and n.at takes its read lock again`
}

func (n *names) Add(name string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.list = append(n.list, name)
}

// Events hands out the next event from a channel: a receive is not a
// read to repeat under the caller's lock.
type events struct {
	mu sync.RWMutex
	ch chan string
}

func (e *events) next() string {
	e.mu.RLock()
	defer e.mu.RUnlock()
	return <-e.ch
}

func (e *events) Drain() string {
	e.mu.RLock()
	defer e.mu.RUnlock()
	return e.next() // want `e.mu is held for reading here and e.next takes its read lock again`
}

func (e *events) Reset() {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.ch = make(chan string, 1)
}

// base's getter is promoted to wrapped, which has a field of the same
// name: read through wrapped, the field would be wrapped's own.
type base struct {
	mu   sync.RWMutex
	list []string
}

func (b *base) size() int {
	b.mu.RLock()
	defer b.mu.RUnlock()
	return len(b.list)
}

func (b *base) Add(s string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.list = append(b.list, s)
}

type wrapped struct {
	*base
	list []int
}

func (w *wrapped) Empty() bool {
	w.mu.RLock()
	defer w.mu.RUnlock()
	return w.size() == 0 // want `w.mu is held for reading here and w.size takes its read lock again`
}

// A getter of a map lookup's two values, called under the lock it
// takes: written out in place, the lookup would be one value where the
// call hands on two, so the fix is the variant.
type ports struct {
	mu     sync.RWMutex
	byName map[string]int
}

func (p *ports) lookup(name string) (int, bool) {
	p.mu.RLock()
	defer p.mu.RUnlock()
	port, ok := p.byName[name]
	return port, ok
}

func (p *ports) Resolve(name string) (int, bool) {
	p.mu.RLock()
	defer p.mu.RUnlock()
	return p.lookup(name) // want `p.mu is held for reading here and p.lookup takes its read lock again`
}

func (p *ports) Set(name string, port int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.byName[name] = port
}

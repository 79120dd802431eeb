// Package store is a set whose methods lock internally; package admit
// uses it from another package, through the summaries store exports.
package store

import (
	"errors"
	"iter"
	"sync"
)

type Set struct {
	mu    sync.Mutex
	items map[string]bool
	limit int
}

func New() *Set { return &Set{items: map[string]bool{}} } // want New:"returns a new object"

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

// Room returns the room left under limit and, at the limit, an error; only
// the first result carries what it read.
func (s *Set) Room(limit int) (int, error) { // want Room:`locks arg0.mu; returns arg0.items read under arg0.mu into result 0`
	s.mu.Lock()
	n := limit - len(s.items)
	s.mu.Unlock()
	if n <= 0 {
		return 0, errFull
	}
	return n, nil
}

var errFull = errors.New("set is full")

// Limit returns a field set when the set is made and never changed; read
// under the lock or not, it cannot be stale, so the summary does not
// return it as a locked read.
func (s *Set) Limit() int { // want Limit:`^locks arg0.mu; takes arg0.mu first$`
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.limit
}

func NewLimited(limit int) *Set { return &Set{items: map[string]bool{}, limit: limit} } // want NewLimited:"returns a new object"

// Keys lists every key.
func (s *Set) Keys() []string { // want Keys:`locks arg0.mu; returns arg0.items read under arg0.mu; returns arg0.items\[...\] read under arg0.mu`
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for k := range s.items {
		out = append(out, k)
	}
	return out
}

// Marked lists the keys whose entry is set.
func (s *Set) Marked() []string { // want Marked:`locks arg0.mu; returns arg0.items picked by a test under arg0.mu; returns arg0.items\[...\] picked by a test under arg0.mu`
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for k, on := range s.items {
		if on {
			out = append(out, k)
		}
	}
	return out
}

// Remove deletes k.
func (s *Set) Remove(k string) { // want Remove:`locks arg0.mu; writes arg0.items\[...\] under arg0.mu`
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.items, k)
}

// Leases holds one lease per name, each with the generation of the grant
// that made it.
type Leases struct {
	mu     sync.Mutex
	leases map[string]Lease
}

type Lease struct {
	Gen    uint64
	Holder string
}

// Get returns name's lease as it is now.
func (l *Leases) Get(name string) Lease { // want Get:`locks arg0.mu; returns arg0.leases read under arg0.mu; returns arg0.leases\[...\] read under arg0.mu`
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.leases[name]
}

// Renew stores le unless name's lease comes from a later grant than le:
// of the two, it keeps the newer.
func (l *Leases) Renew(name string, le Lease) bool { // want Renew:`locks arg0.mu; writes arg0.leases\[...\] under arg0.mu where arg0.leases\[...\] matches arg2`
	l.mu.Lock()
	defer l.mu.Unlock()
	if cur := l.leases[name]; cur.Gen > le.Gen {
		return false
	}
	l.leases[name] = le
	return true
}

// Acquire grants name to le unless it is held by now, as go-cache's Add
// refuses a key it has: the look-up is a plain helper with no lock of its
// own, run under Acquire's.
func (l *Leases) Acquire(name string, le Lease) error { // want Acquire:`locks arg0.mu; writes arg0.leases\[...\] under arg0.mu; takes arg0.mu first$`
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.held(name) {
		return errHeld
	}
	l.leases[name] = le
	return nil
}

func (l *Leases) held(name string) bool {
	return l.leases[name].Holder != ""
}

var errHeld = errors.New("lease held")

// Put stores le, whatever name holds now.
func (l *Leases) Put(name string, le Lease) { // want Put:`locks arg0.mu; writes arg0.leases\[...\] under arg0.mu; takes arg0.mu first$`
	l.mu.Lock()
	defer l.mu.Unlock()
	l.leases[name] = le
}

// Has says only whether k is there: the found result of its lookup.
func (s *Set) Has(k string) bool { // want Has:`locks arg0.mu; returns whether arg0.items is there, read under arg0.mu; returns whether arg0.items\[...\] is there, read under arg0.mu`
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.items[k]
	return ok
}

// IsMarked says what k's entry holds.
func (s *Set) IsMarked(k string) bool { // want IsMarked:`locks arg0.mu; returns arg0.items read under arg0.mu; returns arg0.items\[...\] read under arg0.mu`
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.items[k]
}

// Refs counts the users of each name; the last user's Drop removes it.
type Refs struct {
	mu    sync.Mutex
	users map[string]*Ref
}

type Ref struct {
	Count int
	Meta  string
}

// Lookup answers whether name has users, and hands back their entry.
func (r *Refs) Lookup(name string) (*Ref, bool) { // want Lookup:`locks arg0.mu; returns arg0.users read under arg0.mu into result 0,1; returns arg0.users\[...\] read under arg0.mu into result 0,1`
	r.mu.Lock()
	defer r.mu.Unlock()
	ref, ok := r.users[name]
	return ref, ok
}

// Take looks name up again and creates its entry where it is missing.
func (r *Refs) Take(name, meta string) *Ref { // want Take:`creates arg0.users\[...\] by arg1 where missing, under arg0.mu; takes arg0.mu first$`
	r.mu.Lock()
	defer r.mu.Unlock()
	ref, ok := r.users[name]
	if !ok {
		ref = &Ref{Meta: meta}
		r.users[name] = ref
	}
	ref.Count++
	return ref
}

// Drop gives a use back; a name no longer there is ignored.
func (r *Refs) Drop(name string) { // want Drop:`locks arg0.mu`
	r.mu.Lock()
	defer r.mu.Unlock()
	ref, ok := r.users[name]
	if !ok {
		return
	}
	ref.Count--
	if ref.Count == 0 {
		delete(r.users, name)
	}
}

// All yields every item while holding the lock: a loop over it runs its
// body under s.mu.
func (s *Set) All() iter.Seq[string] { // want All:`^yields under arg0.mu$`
	return func(yield func(string) bool) {
		s.mu.Lock()
		defer s.mu.Unlock()
		for k := range s.items {
			if !yield(k) {
				return
			}
		}
	}
}

// Snapshot copies the items under the lock and yields them without it.
func (s *Set) Snapshot() iter.Seq[string] {
	return func(yield func(string) bool) {
		s.mu.Lock()
		items := make([]string, 0, len(s.items))
		for k := range s.items {
			items = append(items, k)
		}
		s.mu.Unlock()
		for _, k := range items {
			if !yield(k) {
				return
			}
		}
	}
}

// Index is a generic map whose iterator holds its lock too.
type Index[K comparable] struct {
	mu sync.Mutex
	m  map[K]int
}

func (x *Index[K]) Keys() iter.Seq[K] { // want Keys:`^yields under arg0.mu$`
	return func(yield func(K) bool) {
		x.mu.Lock()
		defer x.mu.Unlock()
		for k := range x.m {
			if !yield(k) {
				return
			}
		}
	}
}

func (x *Index[K]) Drop(k K) { // want Drop:`locks arg0.mu; writes arg0.m\[...\] under arg0.mu; takes arg0.mu first$`
	x.mu.Lock()
	defer x.mu.Unlock()
	delete(x.m, k)
}

func (x *Index[K]) Len() int { // want Len:`locks arg0.mu; returns arg0.m read under arg0.mu`
	x.mu.Lock()
	defer x.mu.Unlock()
	return len(x.m)
}

func (x *Index[K]) Put(k K, v int) { // want Put:`locks arg0.mu; writes arg0.m\[...\] under arg0.mu`
	x.mu.Lock()
	defer x.mu.Unlock()
	x.m[k] = v
}

// Range calls f for every item under the lock.
func (s *Set) Range(f func(k string) bool) { // want Range:`^locks arg0.mu; takes arg0.mu first; calls arg1 under arg0.mu$` Range:`calls back \[0\]`
	s.mu.Lock()
	defer s.mu.Unlock()
	for k := range s.items {
		if !f(k) {
			return
		}
	}
}

// Each copies the items under the lock and calls f without it.
func (s *Set) Each(f func(k string)) { // want Each:`^locks arg0.mu; takes arg0.mu first$` Each:`calls back \[0\]`
	s.mu.Lock()
	items := make([]string, 0, len(s.items))
	for k := range s.items {
		items = append(items, k)
	}
	s.mu.Unlock()
	for _, k := range items {
		f(k)
	}
}

// PutIfRoom checks the size and puts in one section.
func (x *Index[K]) PutIfRoom(k K, v, limit int) bool { // want PutIfRoom:`locks arg0.mu`
	x.mu.Lock()
	defer x.mu.Unlock()
	if len(x.m) >= limit {
		return false
	}
	x.m[k] = v
	return true
}

// ErrHeld is Vacant's failure for a name someone holds a lease on.
var ErrHeld = errors.New("lease held")

// Vacant fails when name has a lease: its error is the answer.
func (l *Leases) Vacant(name string) error { // want Vacant:`returns arg0.leases\[...\] read under arg0.mu \(the error says whether it is there\)`
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, ok := l.leases[name]; ok {
		return ErrHeld
	}
	return nil
}

// PutIfVacant stores le only where name has no lease.
func (l *Leases) PutIfVacant(name string, le Lease) bool { // want PutIfVacant:`locks arg0.mu`
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, ok := l.leases[name]; ok {
		return false
	}
	l.leases[name] = le
	return true
}

// Ring is a hash ring a balancer builds once per instance set.
type Ring struct{ ID int }

// Rings keeps each balancer's ring in a sync.Map; balancers build a
// missing one under the lock Locker hands out.
type Rings struct {
	lock sync.Mutex
	m    sync.Map
}

func (r *Rings) Get(id int) *Ring { // want Get:`locks arg0.m; returns arg0.m\[...\] read under arg0.m`
	v, ok := r.m.Load(id)
	if !ok {
		return nil
	}
	return v.(*Ring)
}

func (r *Rings) Set(x *Ring) { r.m.Store(x.ID, x) } // want Set:`locks arg0.m; writes arg0.m\[...\] under arg0.m`

// Locker hands out the lock balancers build under.
func (r *Rings) Locker() sync.Locker { return &r.lock } // want Locker:`returns the lock arg0.lock`

// Meter is a quota whose methods lock internally: Left reads what is
// left, Use takes n from what is left when it runs.
type Meter struct {
	mu   sync.Mutex
	left int
}

func (m *Meter) Left() int { // want Left:`locks arg0.mu; returns arg0.left read under arg0.mu`
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.left
}

func (m *Meter) Use(n int) { // want Use:`locks arg0.mu; writes arg0.left under arg0.mu`
	m.mu.Lock()
	m.left -= n
	m.mu.Unlock()
}

// Reset sets what is left, whatever it was.
func (m *Meter) Reset(n int) { // want Reset:`locks arg0.mu; writes arg0.left under arg0.mu`
	m.mu.Lock()
	m.left = n
	m.mu.Unlock()
}

package sessions

import (
	"iter"
	"sync"
	"time"
)

// A session table with an iterator that holds the read lock while the
// loop body runs. A body that removes, or reads through a helper that
// takes the read lock again, waits for the iterator it runs inside.

type session struct {
	user    string
	expires time.Time
}

type Table struct {
	mu   sync.RWMutex
	byID map[string]*session
}

// All yields every session under the read lock.
func (t *Table) All() iter.Seq2[string, *session] {
	return func(yield func(string, *session) bool) {
		t.mu.RLock()
		defer t.mu.RUnlock()
		for id, s := range t.byID {
			if !yield(id, s) {
				return
			}
		}
	}
}

func (t *Table) remove(id string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.byID, id)
}

func (t *Table) size() int {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return len(t.byID)
}

// Sweep removes expired sessions from inside the loop: remove's Lock
// waits for every reader, the iterator running this body too.
func (t *Table) Sweep(now time.Time) {
	for id, s := range t.All() {
		if s.expires.Before(now) {
			t.remove(id) // want `t.mu is held for reading by the iterator t.All while the loop body runs, and t.remove takes its write lock, which waits for every reader, the iterator t.All too: the loop never ends; collect what the loop finds and act on it after the loop, or have the iterator copy what it yields and unlock before yielding`
		}
	}
}

// Evict takes the write lock in the body itself.
func (t *Table) Evict(user string) {
	for id, s := range t.All() {
		if s.user == user {
			t.mu.Lock() // want `t.mu is held for reading by the iterator t.All while the loop body runs, and the loop body takes its write lock`
			delete(t.byID, id)
			t.mu.Unlock()
		}
	}
}

// Describe reads the size through a helper that takes the read lock
// again: a remove whose Lock comes in between hangs them both.
func (t *Table) Describe() []string {
	var out []string
	for id := range t.All() {
		if t.size() > 100 { // want `t.mu is held for reading by the iterator t.All while the loop body runs, and t.size takes its read lock again`
			break
		}
		out = append(out, id)
	}
	return out
}

// SweepAfter collects first and removes after the loop: silent.
func (t *Table) SweepAfter(now time.Time) {
	var dead []string
	for id, s := range t.All() {
		if s.expires.Before(now) {
			dead = append(dead, id)
		}
	}
	for _, id := range dead {
		t.remove(id)
	}
}

// IDs copies the keys under the lock and yields them without it.
func (t *Table) IDs() iter.Seq[string] {
	return func(yield func(string) bool) {
		t.mu.RLock()
		ids := make([]string, 0, len(t.byID))
		for id := range t.byID {
			ids = append(ids, id)
		}
		t.mu.RUnlock()
		for _, id := range ids {
			if !yield(id) {
				return
			}
		}
	}
}

// Prune removes over the copied keys: the iterator holds nothing while
// the body runs. Silent.
func (t *Table) Prune(keep func(string) bool) {
	for id := range t.IDs() {
		if !keep(id) {
			t.remove(id)
		}
	}
}

// MoveTo adds to another table inside the loop: that table's lock, not
// the one the iterator holds. Silent.
func (t *Table) MoveTo(other *Table) {
	for id, s := range t.All() {
		other.mu.Lock()
		other.byID[id] = s
		other.mu.Unlock()
	}
}

// Users takes no lock in the body: silent.
func (t *Table) Users() []string {
	var users []string
	for _, s := range t.All() {
		users = append(users, s.user)
	}
	return users
}

// A table nobody write-locks after it is built: a second read lock in
// the body cannot get stuck behind a writer. Silent.
type Catalog struct {
	mu     sync.RWMutex
	titles map[string]string
}

func (c *Catalog) Titles() iter.Seq[string] {
	return func(yield func(string) bool) {
		c.mu.RLock()
		defer c.mu.RUnlock()
		for _, title := range c.titles {
			if !yield(title) {
				return
			}
		}
	}
}

func (c *Catalog) count() int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return len(c.titles)
}

func (c *Catalog) Numbered() []string {
	var out []string
	for title := range c.Titles() {
		out = append(out, title+" of "+string(rune('0'+c.count())))
	}
	return out
}

// A generic set whose iterator holds the read lock.
type Set[K comparable] struct {
	mu sync.RWMutex
	m  map[K]struct{}
}

func (s *Set[K]) All() iter.Seq[K] {
	return func(yield func(K) bool) {
		s.mu.RLock()
		defer s.mu.RUnlock()
		for k := range s.m {
			if !yield(k) {
				return
			}
		}
	}
}

func (s *Set[K]) Delete(k K) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.m, k)
}

func DropWhere[K comparable](s *Set[K], bad func(K) bool) {
	for k := range s.All() {
		if bad(k) {
			s.Delete(k) // want `s.mu is held for reading by the iterator s.All while the loop body runs, and s.Delete takes its write lock`
		}
	}
}

func DropBlocked(s *Set[string], blocked map[string]bool) {
	for k := range s.All() {
		if blocked[k] {
			s.Delete(k) // want `s.mu is held for reading by the iterator s.All while the loop body runs, and s.Delete takes its write lock`
		}
	}
}

package reentryinline

import "sync"

// Helpers called with their lock held that neither fix can rewrite: the
// reports stand alone.

type queue struct {
	mu    sync.RWMutex
	items []string
	drops int
}

// push takes the write lock: a variant would write under the caller's
// read lock.
func (q *queue) push(s string) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.items = append(q.items, s)
}

func (q *queue) PushIfEmpty(s string) {
	q.mu.RLock()
	defer q.mu.RUnlock()
	if len(q.items) == 0 {
		q.push(s) // want `q.mu is held for reading here and q.push takes its write lock`
	}
}

// snapshot lets go of the lock before it copies: its body uses the lock.
func (q *queue) snapshot() []string {
	q.mu.RLock()
	defer q.mu.RUnlock()
	items := q.items
	q.mu.RUnlock()
	out := append([]string(nil), items...)
	q.mu.RLock()
	return out
}

func (q *queue) Oldest() string {
	q.mu.RLock()
	defer q.mu.RUnlock()
	all := q.snapshot() // want `q.mu is held for reading here and q.snapshot takes its read lock again`
	if len(all) == 0 {
		return ""
	}
	return all[0]
}

// size has a variant already, which size does not call: another function
// of that name is not known to be size's body.
func (q *queue) size() int {
	q.mu.RLock()
	defer q.mu.RUnlock()
	n := len(q.items)
	return n
}

func (q *queue) sizeLocked() int { return len(q.items) - q.drops }

func (q *queue) Full(max int) bool {
	q.mu.RLock()
	defer q.mu.RUnlock()
	return q.size() >= max // want `q.mu is held for reading here and q.size takes its read lock again`
}

// first leaves its parameter unnamed: the variant could not be called
// with it.
func (q *queue) first(int) string {
	q.mu.RLock()
	defer q.mu.RUnlock()
	s := ""
	if len(q.items) > 0 {
		s = q.items[0]
	}
	return s
}

func (q *queue) Head() string {
	q.mu.RLock()
	defer q.mu.RUnlock()
	return q.first(0) // want `q.mu is held for reading here and q.first takes its read lock again`
}

func (q *queue) Drop() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.items, q.drops = q.items[1:], q.drops+1
}

// Tail calls a helper in a generated file, which a fix does not edit.
func (q *queue) Tail() string {
	q.mu.RLock()
	defer q.mu.RUnlock()
	return q.last() // want `q.mu is held for reading here and q.last takes its read lock again`
}

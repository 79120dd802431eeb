// Package txn stands in for a key-value store's transaction helpers: View
// runs the function it is given in a read transaction before it returns,
// Store.Read wraps View, and Store.Later keeps the function to run it on
// another goroutine. The first two are marked as running their function
// argument in place; Later is not.
package txn

import "sync"

type Tx struct{ data map[string]string }

func (tx *Tx) Get(k string) string { return tx.data[k] }

type DB struct {
	mu   sync.RWMutex
	data map[string]string
}

func (db *DB) View(fn func(*Tx) error) error { // want View:`^calls arg1 in place$` View:`locks arg0.mu`
	db.mu.RLock()
	defer db.mu.RUnlock()
	return fn(&Tx{data: db.data})
}

type Store struct{ db *DB }

func (s *Store) Read(fn func(*Tx) error) error { // want Read:`^calls arg1 in place$` Read:`locks arg0.db.mu`
	return s.db.View(func(tx *Tx) error { return fn(tx) })
}

func (s *Store) Later(fn func(*Tx) error) { // want
	go func() { _ = s.db.View(fn) }()
}

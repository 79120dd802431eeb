// Package txnindex restores an index from a store inside a transaction
// before starting its merger goroutine. txn's Read runs the closure in
// place, before it returns (a fact of package txn says so), so the
// restore happens before the merger exists, and the merger's
// read-then-swap is silent. The twin restores through Later, which runs
// the closure on another goroutine whenever it likes: a restore between
// the merger's sections is lost, and it is reported.
package txnindex

import (
	"sync"

	"example.com/txn"
)

type Index struct {
	mu       sync.RWMutex
	current  []string
	incoming chan string
	store    *txn.Store
}

func (x *Index) Open() error {
	err := x.store.Read(func(tx *txn.Tx) error {
		x.mu.Lock()
		x.current = []string{tx.Get("segments")}
		x.mu.Unlock()
		return nil
	})
	if err != nil {
		return err
	}
	go x.merge()
	return nil
}

func (x *Index) merge() {
	for name := range x.incoming {
		x.mu.RLock()
		cur := x.current
		x.mu.RUnlock()
		next := append(append([]string(nil), cur...), name)
		x.mu.Lock()
		x.current = next
		x.mu.Unlock()
	}
}

type LazyIndex struct {
	mu       sync.RWMutex
	current  []string
	incoming chan string
	store    *txn.Store
}

func (x *LazyIndex) Open() {
	x.store.Later(func(tx *txn.Tx) error {
		x.mu.Lock()
		x.current = []string{tx.Get("segments")}
		x.mu.Unlock()
		return nil
	})
	go x.merge()
}

func (x *LazyIndex) merge() {
	for name := range x.incoming {
		x.mu.RLock()
		cur := x.current
		x.mu.RUnlock()
		next := append(append([]string(nil), cur...), name)
		x.mu.Lock() // want `x.mu is locked again for writing after RUnlock: the value written derives from cur, read under the read lock; an update made in between is lost; re-read it under the write lock`
		x.current = next
		x.mu.Unlock()
	}
}

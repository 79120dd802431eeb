// Package schema keeps a test database's tables. CreateTable checks and
// stores in two sections of d.mu: known false in its program, whose
// documentation limits schema changes to one goroutine; the lock only
// lets readers run beside that one writer (a documented contract).
package schema

import (
	"errors"
	"sync"
)

type Table struct{ Name string }

// Database is not safe for concurrent schema changes: run CREATE, DROP
// and RENAME from one goroutine. Reads may run beside them.
type Database struct {
	mu     sync.RWMutex
	tables map[string]*Table
}

func (d *Database) Table(name string) (*Table, bool) {
	d.mu.RLock()
	defer d.mu.RUnlock()
	t, ok := d.tables[name]
	return t, ok
}

func (d *Database) CreateTable(name string) (*Table, error) {
	if _, exists := d.Table(name); exists {
		return nil, errors.New("table exists")
	}
	t := &Table{Name: name}
	d.mu.Lock() // want `d.mu is locked again for writing after RUnlock: d.Table\(name\) was missing under the read lock`
	d.tables[name] = t
	d.mu.Unlock()
	return t, nil
}

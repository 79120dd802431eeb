// Package compiler resolves the tables of the queries it analyses and
// caches what it looked up in the database. tableInfo misses the cache,
// queries, and stores the entry in a second call: known false in its
// program, where the driver in another package makes one Analyzer per
// package of queries and analyses them one after another on the
// goroutine that made it (an object made per call and never shared;
// which goroutine runs what). The sync.Map is defensive.
package compiler

import (
	"context"
	"sync"
)

type Table struct {
	Name    string
	Columns []string
}

type Catalog interface {
	LookupTable(ctx context.Context, oid uint32) (Table, error)
}

type Analyzer struct {
	db     Catalog
	tables sync.Map // oid -> *Table
}

func New(db Catalog) *Analyzer { return &Analyzer{db: db} }

func (a *Analyzer) tableInfo(ctx context.Context, oid uint32) (*Table, error) {
	if t, ok := a.tables.Load(oid); ok {
		return t.(*Table), nil
	}
	t, err := a.db.LookupTable(ctx, oid)
	if err != nil {
		return nil, err
	}
	a.tables.Store(oid, &t) // want `a.tables.Store stores what a.tables.Load found missing`
	return &t, nil
}

// Columns lists the columns of the table oid names.
func (a *Analyzer) Columns(ctx context.Context, oid uint32) ([]string, error) {
	t, err := a.tableInfo(ctx, oid)
	if err != nil {
		return nil, err
	}
	return t.Columns, nil
}

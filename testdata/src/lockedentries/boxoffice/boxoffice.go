// Package boxoffice sells seats for every show, one sale at a time: the
// office's lock is held around each booking, made through the Booker
// interface.
package boxoffice

import (
	"sync"

	"lockedentries/seats"
)

type Booker interface {
	Book(s seats.Seat, who string) bool
}

type Office struct {
	mu     sync.Mutex
	charts map[string]Booker
}

func New() *Office {
	return &Office{charts: map[string]Booker{"matinee": seats.NewChart()}}
}

func (o *Office) Sell(show string, s seats.Seat, who string) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	b, ok := o.charts[show]
	return ok && b.Book(s, who) // want `\(\*lockedentries/seats.Chart\).Book locked`
}

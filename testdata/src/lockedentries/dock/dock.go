// Package dock assigns bays to trucks one at a time, under the dock's
// lock.
package dock // want `\(\*lockedentries/bays.Bays\).Take other fresh`

import (
	"sync"

	"lockedentries/bays"
)

// bayKeeper is how the dock sees its bays.
type bayKeeper interface {
	Take(n int, truck string) bool
	Release(n int)
}

type Dock struct {
	mu   sync.Mutex
	bays bayKeeper
}

func New() *Dock { return &Dock{bays: bays.New()} }

// Assign gives truck the first free bay of n, or -1.
func (d *Dock) Assign(truck string, n int) int {
	d.mu.Lock()
	defer d.mu.Unlock()
	for i := range n {
		if d.bays.Take(i, truck) { // want `\(\*lockedentries/bays.Bays\).Take locked`
			return i
		}
	}
	return -1
}

func (d *Dock) Leave(bay int) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.bays.Release(bay) // want `\(\*lockedentries/bays.Bays\).Release locked`
}

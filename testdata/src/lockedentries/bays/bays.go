// Package bays keeps which loading bays of a dock are taken. Take checks
// that a bay is free in one section and takes it in another: Bays does
// not serialise takers by itself. Every take in the module is the dock's,
// made under the dock's lock through an interface the dock's package
// declares unexported. Take's signature names no type of the module, yet
// a value converted to that interface is called only where the driver
// sees the calls.
package bays

import "sync"

type Bays struct {
	mu    sync.Mutex
	taken map[int]string
}

func New() *Bays { return &Bays{taken: make(map[int]string)} }

func (b *Bays) isFree(n int) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	_, taken := b.taken[n]
	return !taken
}

// Take gives bay n to truck if no one has it.
func (b *Bays) Take(n int, truck string) bool {
	if !b.isFree(n) {
		return false
	}
	b.mu.Lock() // want `b.mu is locked again`
	b.taken[n] = truck
	b.mu.Unlock()
	return true
}

// Release frees bay n.
func (b *Bays) Release(n int) {
	b.mu.Lock()
	delete(b.taken, n)
	b.mu.Unlock()
}

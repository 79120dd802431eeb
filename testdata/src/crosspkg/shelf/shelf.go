// Package shelf uses only another package's generic index: it never
// refers to package sync itself, and is analysed for the facts of the
// index's methods (their origin's).
package shelf

import "crosspkg/store"

// Stock checks the size and puts in a second section of the index's lock.
func Stock(x *store.Index[string], item string, capacity int) bool {
	if x.Len() >= capacity {
		return false
	}
	x.Put(item, 1) // want `x.mu is locked again by x.Put after the section that checked`
	return true
}

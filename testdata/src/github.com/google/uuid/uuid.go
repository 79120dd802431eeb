// Package uuid stands in for github.com/google/uuid: the names lockgap
// knows, with bodies just good enough to compile.
package uuid

import "crypto/sha1"

type UUID [16]byte

var NameSpaceURL UUID

// NewString returns a random (version 4) UUID as a string.
func NewString() string { return New().String() }

// New returns a random (version 4) UUID.
func New() UUID {
	var u UUID
	for i := range u {
		u[i] = byte(i)
	}
	return u
}

// NewSHA1 returns the name-based (version 5) UUID of data in space: the
// same input gives the same UUID.
func NewSHA1(space UUID, data []byte) UUID {
	h := sha1.Sum(append(space[:], data...))
	var u UUID
	copy(u[:], h[:])
	return u
}

func (u UUID) String() string { return string(u[:]) }

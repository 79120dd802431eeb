// Package impl stands in for the protocol buffer runtime's internals: the
// state every generated message embeds.
package impl

import "sync"

// MessageState is per-message runtime bookkeeping; the real one forbids
// copying with a zero-length array of mutexes, as this one does.
type MessageState struct {
	noCopy [0]sync.Mutex
	info   *MessageInfo
}

// MessageInfo describes a message type to the runtime.
type MessageInfo struct {
	mu      sync.Mutex
	methods map[string]func()
}

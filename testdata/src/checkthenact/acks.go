package checkthenact

import (
	"errors"
	"sync"
)

// Acks keeps, per chunked message, the ids of its chunks until the whole
// message is acknowledged.
type Acks struct {
	mu  sync.Mutex
	ids map[string][]int
}

func (a *Acks) get(msg string) []int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.ids[msg]
}

func (a *Acks) put(msg string, ids []int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.ids[msg] = ids
}

func (a *Acks) remove(msg string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	delete(a.ids, msg)
}

var errIncomplete = errors.New("chunk missing")

// Ack acknowledges every chunk, then forgets the message: leaving the loop
// says only that every call worked, and removing the entry then is "it is
// there and done, so delete it". Silent.
func (a *Acks) Ack(msg string, ack func(id int) error) error {
	for _, id := range a.get(msg) {
		if err := ack(id); err != nil {
			return err
		}
	}
	a.remove(msg)
	return nil
}

// Complete forgets the message when the listing had every chunk: a chunk
// list put back meanwhile, still missing one, is removed all the same.
func (a *Acks) Complete(msg string) error {
	for _, id := range a.get(msg) {
		if id < 0 {
			return errIncomplete
		}
	}
	a.remove(msg) // want `a.mu is locked again by a.remove after the section that checked: the write is decided by a.get\(msg\)`
	return nil
}

package lazyinit

import (
	"sync"
	"time"
)

// Mailboxes hands invitations from one connection to another. Each
// connection's goroutine looks up the peer's mailbox, offers the
// invitation with a timeout, and on its way out removes its own mailbox:
// the removal is not decided by the lookup (any iteration of the loop may
// end there). Silent.
type Mailboxes struct {
	mu    sync.RWMutex
	boxes map[string]chan string
}

func (m *Mailboxes) Serve(self string, invites <-chan string, closed <-chan struct{}) {
	for {
		select {
		case peer := <-invites:
			m.mu.RLock()
			box, ok := m.boxes[peer]
			m.mu.RUnlock()
			if !ok {
				continue
			}
			select {
			case box <- self:
			case <-time.After(time.Second):
			}
		case <-closed:
			m.mu.Lock()
			delete(m.boxes, self)
			m.mu.Unlock()
			return
		}
	}
}

// ServeOpening opens a mailbox for a peer it found without one: another
// connection may have opened it in between, and this one replaces it.
func (m *Mailboxes) ServeOpening(self string, invites <-chan string, closed <-chan struct{}) {
	for {
		select {
		case peer := <-invites:
			m.mu.RLock()
			box, ok := m.boxes[peer]
			m.mu.RUnlock()
			if !ok {
				box = make(chan string, 1)
				m.mu.Lock() // want `m.mu is locked again for writing after RUnlock: box was missing under the read lock`
				m.boxes[peer] = box
				m.mu.Unlock()
			}
			select {
			case box <- self:
			case <-time.After(time.Second):
			}
		case <-closed:
			return
		}
	}
}

package checkthenact

import "sync"

// A mailbox whose room is asked of one helper and filled by another: each
// takes the lock, so the answer "there is room" is stale by the time the
// message goes in, and two senders can both see the last free slot.

type mailbox struct {
	mu    sync.Mutex
	queue []string
	max   int
}

func (m *mailbox) hasRoom() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.queue) < m.max
}

func (m *mailbox) full() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.queue) >= m.max {
		return true
	}
	return false
}

func (m *mailbox) put(msg string) {
	m.mu.Lock()
	m.queue = append(m.queue, msg)
	m.mu.Unlock()
}

// offer checks the room again before it appends.
func (m *mailbox) offer(msg string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.queue) >= m.max {
		return false
	}
	m.queue = append(m.queue, msg)
	return true
}

func (m *mailbox) take() (string, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.queue) == 0 {
		return "", false
	}
	msg := m.queue[0]
	m.queue = m.queue[1:]
	return msg, true
}

// Reported: the room seen by hasRoom may be gone when put appends.
func Send(m *mailbox, msg string) bool {
	if !m.hasRoom() {
		return false
	}
	m.put(msg) // want `m.mu is locked again by m.put after the section that checked`
	return true
}

// Reported: the same, with the helper answering by constants.
func SendUnlessFull(m *mailbox, msg string) bool {
	if m.full() {
		return false
	}
	m.put(msg) // want `m.mu is locked again by m.put after the section that checked`
	return true
}

// Silent: offer decides again under its own lock; hasRoom only saves
// a call.
func SendChecked(m *mailbox, msg string) bool {
	if !m.hasRoom() {
		return false
	}
	return m.offer(msg)
}

// Silent: draining while there is something to drain takes what is
// there; a racer's take only empties the queue sooner.
func Drain(m *mailbox, out func(string)) {
	for !m.isEmpty() {
		msg, ok := m.take()
		if !ok {
			return
		}
		out(msg)
	}
}

func (m *mailbox) isEmpty() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.queue) == 0
}

// A job runner asked whether anything is still queued: len(queues) > 0
// bounds nothing, and the answer only decides whether the scheduling loop
// goes round again to submit more.
type jobRunner struct {
	mu     sync.Mutex
	queues map[string][]func()
}

func (r *jobRunner) busy() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.queues) > 0
}

func (r *jobRunner) submit(key string, job func()) {
	r.mu.Lock()
	r.queues[key] = append(r.queues[key], job)
	r.mu.Unlock()
}

// Silent.
func Schedule(r *jobRunner, next func() (string, func(), bool), wake <-chan struct{}) {
	for {
		if key, job, ok := next(); ok {
			r.submit(key, job)
		}
		if !r.busy() {
			return
		}
		<-wake
	}
}

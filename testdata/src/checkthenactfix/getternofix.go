package checkthenactfix

import (
	"log"
	"strings"
	"sync"
)

// Decisions taken through getters that cannot be written out at the
// Lock, or tests that cannot be copied there: reported, with no fix.

type Mailbox struct {
	mu      sync.Mutex
	letters []string
	limit   int
	closed  bool
}

func (m *Mailbox) Len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.letters)
}

func (m *Mailbox) capacity() int { return m.limit }

// PostBounded's test calls another function than the getter.
func (m *Mailbox) PostBounded(letter string) bool {
	if m.Len() >= m.capacity() {
		return false
	}
	m.mu.Lock() // want `m.mu is locked again after the section that checked: the write is decided by m.Len\(\)`
	m.letters = append(m.letters, letter)
	m.mu.Unlock()
	return true
}

// PostLogged's way out logs before it leaves.
func (m *Mailbox) PostLogged(letter string) bool {
	if m.Len() >= m.limit {
		log.Print("mailbox full")
		return false
	}
	m.mu.Lock() // want `m.mu is locked again after the section that checked: the write is decided by m.Len\(\)`
	m.letters = append(m.letters, letter)
	m.mu.Unlock()
	return true
}

// Has is handed a key made by a call.
func (m *Mailbox) Has(letter string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.letters) > 0 && m.letters[len(m.letters)-1] == letter
}

func (m *Mailbox) PostOnce(letter string) {
	if m.Has(strings.TrimSpace(letter)) {
		return
	}
	m.mu.Lock() // want `m.mu is locked again after the section that checked: the write is decided by m.Has\(strings.TrimSpace\(letter\)\)`
	m.letters = append(m.letters, strings.TrimSpace(letter))
	m.mu.Unlock()
}

// Open's getter releases its lock by hand.
func (m *Mailbox) Open() bool {
	m.mu.Lock()
	closed := m.closed
	m.mu.Unlock()
	return !closed
}

func (m *Mailbox) Close() {
	if !m.Open() {
		return
	}
	m.mu.Lock() // want `m.mu is locked again after the section that checked: the write is decided by m.Open\(\)`
	m.closed = true
	m.letters = nil
	m.mu.Unlock()
}

// PostAll's test reads letters, which it reassigns before the Lock: the
// test copied there would count other letters than it did.
func (m *Mailbox) PostAll(letters []string, signature string) bool {
	if m.Len()+len(letters) > m.limit {
		return false
	}
	letters = append(letters, signature)
	m.mu.Lock() // want `m.mu is locked again after the section that checked: the write is decided by m.Len\(\)`
	m.letters = append(m.letters, letters...)
	m.mu.Unlock()
	return true
}

func (m *Mailbox) file(letter string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.letters = append(m.letters, strings.ToUpper(letter))
}

// PostFiled's setter appends what a call makes: written out, the call
// would move under the lock.
func (m *Mailbox) PostFiled(letter string) bool {
	if m.Len() >= m.limit {
		return false
	}
	m.file(letter) // want `m.mu is locked again by m.file after the section that checked: the write is decided by m.Len\(\)`
	return true
}

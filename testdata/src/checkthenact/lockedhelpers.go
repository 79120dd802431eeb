package checkthenact

import "sync"

// Squad keeps the members of a team, at most cap of them. Its mutating
// helpers follow the ...Locked convention: the exported wrapper takes the
// lock and hands over to a helper that expects it held.
type Squad struct {
	mu      sync.Mutex
	members map[string]int
	cap     int
}

func (s *Squad) Size() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.members)
}

func (s *Squad) enroll(name string, rank int) {
	s.mu.Lock()
	s.enrollLocked(name, rank)
	s.mu.Unlock()
}

func (s *Squad) enrollLocked(name string, rank int) {
	s.members[name] = rank
}

// Join checks the room through Size and enrolls through a wrapper whose
// write happens in a helper: two joiners that both saw one free seat
// both get in.
func (s *Squad) Join(name string, rank int) bool {
	if s.Size() >= s.cap {
		return false
	}
	s.enroll(name, rank) // want `s.mu is locked again by s.enroll after the section that checked: the write is decided by s.Size\(\), read in an earlier section, which may be stale`
	return true
}

func (s *Squad) enrollIfRoom(name string, rank int) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.members) >= s.cap {
		return false
	}
	s.enrollLocked(name, rank)
	return true
}

// JoinChecked asks first, for a quick answer, and lets the wrapper weigh
// the room again under the lock before enrolling.
func (s *Squad) JoinChecked(name string, rank int) bool {
	if s.Size() >= s.cap {
		return false
	}
	return s.enrollIfRoom(name, rank)
}

// Seats counts the free seats through a helper that expects the lock
// held, and Take fills one through another: the same gap as Join, with
// both sides behind ...Locked helpers.
func (s *Squad) Seats() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.seatsLocked()
}

func (s *Squad) seatsLocked() int { return s.cap - len(s.members) }

func (s *Squad) Take(name string) bool {
	if s.Seats() <= 0 {
		return false
	}
	s.enroll(name, 0) // want `s.mu is locked again by s.enroll after the section that checked: the write is decided by s.Seats\(\), read in an earlier section, which may be stale`
	return true
}

// Crew's radio is swapped for a new one when it goes dead. isLive is a
// plain getter, also used with no lock held, so it is no ...Locked helper
// and what it reads is not taken for state read under the caller's lock;
// liveLocked says by its name that the caller holds c.mu.
type Crew struct {
	mu    sync.Mutex
	radio chan string
}

func (c *Crew) isLive() bool { return c.radio != nil }

func (c *Crew) liveLocked() bool { return c.radio != nil }

func (c *Crew) Retune(fresh chan string) {
	c.mu.Lock()
	live := c.isLive()
	c.mu.Unlock()
	if live {
		return
	}
	c.mu.Lock()
	c.radio = fresh
	c.mu.Unlock()
}

func (c *Crew) Revive(fresh chan string) {
	c.mu.Lock()
	live := c.liveLocked()
	c.mu.Unlock()
	if live {
		return
	}
	c.mu.Lock() // want `c.mu is locked again after the section that checked: the write is decided by live, read in an earlier section`
	c.radio = fresh
	c.mu.Unlock()
}

func (c *Crew) Busy() bool { return c.isLive() }

// tunedTo says which station the radio is on. Caller must hold c.mu.
func (c *Crew) tunedTo() chan string { return c.radio }

// Swap replaces the radio it found, as the doc comment of tunedTo says,
// read under c.mu: a radio put in since is thrown away.
func (c *Crew) Swap(next chan string) chan string {
	c.mu.Lock()
	prev := c.tunedTo()
	c.mu.Unlock()
	if prev == nil {
		return nil
	}
	c.mu.Lock() // want `c.mu is locked again after the section that checked: the write is decided by prev, read in an earlier section`
	c.radio = next
	c.mu.Unlock()
	return prev
}

// Wire's tls is chosen when the link is made and never changed after:
// whatever a section found it to be, it still is. Silent, read inline or
// through a helper that expects the lock held.
type Wire struct {
	mu     sync.Mutex
	tls    *tlsState
	queued [][]byte
}

type tlsState struct{ records int }

func NewWire(secure bool) *Wire {
	w := &Wire{}
	if secure {
		w.tls = &tlsState{}
	}
	return w
}

// Lock held on entry.
func (w *Wire) secure() bool { return w.tls != nil }

func (w *Wire) Queue(p []byte) {
	w.mu.Lock()
	sec := w.secure()
	w.mu.Unlock()
	if !sec {
		return
	}
	w.mu.Lock()
	w.queued = append(w.queued, p)
	w.tls.records++
	w.mu.Unlock()
}

func (w *Wire) QueueInline(p []byte) {
	w.mu.Lock()
	sec := w.tls != nil
	w.mu.Unlock()
	if !sec {
		return
	}
	w.mu.Lock()
	w.queued = append(w.queued, p)
	w.tls.records++
	w.mu.Unlock()
}

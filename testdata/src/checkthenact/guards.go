// Package checkthenact holds guards computed in one critical section and
// acted on in a later one, wrongly and rightly.
package checkthenact

import (
	"errors"
	"sync"
	"time"
)

// Queue is bounded: the room check and the append are separate sections.
type Queue struct {
	mu    sync.Mutex
	items []string
	max   int
}

func (q *Queue) Offer(job string) bool {
	q.mu.Lock()
	n := len(q.items)
	q.mu.Unlock()
	if n >= q.max {
		return false
	}
	q.mu.Lock() // want `q.mu is locked again after the section that checked: the write is decided by n, read in an earlier section, which may be stale`
	q.items = append(q.items, job)
	q.mu.Unlock()
	return true
}

// OfferChecked tests the bound again in the second section.
func (q *Queue) OfferChecked(job string) bool {
	q.mu.Lock()
	full := len(q.items) >= q.max
	q.mu.Unlock()
	if full {
		return false
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.items) >= q.max {
		return false
	}
	q.items = append(q.items, job)
	return true
}

// OfferOnce holds the lock over guard and append.
func (q *Queue) OfferOnce(job string) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.items) >= q.max {
		return false
	}
	q.items = append(q.items, job)
	return true
}

var ErrFunds = errors.New("insufficient funds")

// Account overdraws: the balance check and the debit are separate sections.
type Account struct {
	mu      sync.Mutex
	balance int64
	audit   []string
}

func (a *Account) Withdraw(amount int64) error {
	a.mu.Lock()
	ok := a.balance >= amount
	a.mu.Unlock()
	if !ok {
		return ErrFunds
	}
	a.mu.Lock() // want `a.mu is locked again after the section that checked: the write is decided by ok, read in an earlier section`
	a.balance -= amount
	a.mu.Unlock()
	return nil
}

// WithdrawChecked re-tests the balance.
func (a *Account) WithdrawChecked(amount int64) error {
	a.mu.Lock()
	ok := a.balance >= amount
	a.mu.Unlock()
	if !ok {
		return ErrFunds
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.balance < amount {
		return ErrFunds
	}
	a.balance -= amount
	return nil
}

// Log reads the balance only for a message; the later write is
// unconditional.
func (a *Account) Log(note string) {
	a.mu.Lock()
	b := a.balance
	a.mu.Unlock()
	line := note + ": " + itoa(b)
	a.mu.Lock()
	a.audit = append(a.audit, line)
	a.mu.Unlock()
}

func itoa(v int64) string {
	if v == 0 {
		return "0"
	}
	var buf [20]byte
	i := len(buf)
	neg := v < 0
	if neg {
		v = -v
	}
	for v > 0 {
		i--
		buf[i] = byte('0' + v%10)
		v /= 10
	}
	if neg {
		i--
		buf[i] = '-'
	}
	return string(buf[i:])
}

// Breaker trips on a decision computed in a write section and acted on in
// the next one: a success in between resets the count, and the breaker
// opens anyway (and wipes the count the success left).
type Breaker struct {
	mu        sync.Mutex
	failures  int
	threshold int
	open      bool
	openedAt  time.Time
}

func (b *Breaker) Fail(now time.Time) {
	b.mu.Lock()
	b.failures++
	trip := b.failures >= b.threshold
	b.mu.Unlock()
	if trip {
		b.mu.Lock() // want `b.mu is locked again after the section that checked: the write is decided by trip`
		b.open = true
		b.openedAt = now
		b.failures = 0
		b.mu.Unlock()
	}
}

func (b *Breaker) Succeed() {
	b.mu.Lock()
	b.failures = 0
	b.mu.Unlock()
}

// Pool claims a slot on a stale "free" check.
type Worker struct{ id int }

type Pool struct {
	mu    sync.Mutex
	slots [8]*Worker
}

func (p *Pool) Assign(i int, w *Worker) *Worker {
	p.mu.Lock()
	cur := p.slots[i]
	p.mu.Unlock()
	if cur != nil {
		return cur
	}
	p.mu.Lock() // want `p.mu is locked again after the section that checked: cur was missing in an earlier section`
	p.slots[i] = w
	p.mu.Unlock()
	return w
}

// Poller is stopped by whoever clears running: two Stops that both saw it
// set in the first section both clear it and both close done, and the
// second close panics. Reported, although clearing a flag is idempotent:
// what the stale flag gates beside the clear need not be.
type Poller struct {
	mu      sync.Mutex
	running bool
	done    chan struct{}
}

func (w *Poller) Stop() {
	w.mu.Lock()
	running := w.running
	w.mu.Unlock()
	if !running {
		return
	}
	w.mu.Lock() // want `w.mu is locked again after the section that checked: the write is decided by running, read in an earlier section, which may be stale`
	w.running = false
	close(w.done)
	w.mu.Unlock()
}

// Journal saves its entries when they changed since the last save. The
// dirty flag is read in one section and cleared in a later one, but that
// section writes a snapshot it reads fresh under the lock: a change made
// in between is in the snapshot, and a second saver only saves again.
// Silent, unlike Poller: nothing else it does is harmful twice.
type Journal struct {
	mu      sync.Mutex
	entries map[string]string
	dirty   bool
}

func (j *Journal) Save(write func(snapshot map[string]string) error) error {
	j.mu.Lock()
	dirty := j.dirty
	j.mu.Unlock()
	if !dirty {
		return nil
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	snapshot := make(map[string]string, len(j.entries))
	for k, v := range j.entries {
		snapshot[k] = v
	}
	if err := write(snapshot); err != nil {
		return err
	}
	j.dirty = false
	return nil
}

// Assignment records the last error applying it; a later success clears
// the error it saw. Clearing only where the error was found set is what
// a fresh check would do too: silent.
type Assignment struct {
	mu  sync.Mutex
	err error
}

func (a *Assignment) Apply(run func() error) error {
	a.mu.Lock()
	hadErr := a.err != nil
	a.mu.Unlock()
	if err := run(); err != nil {
		a.mu.Lock()
		a.err = err
		a.mu.Unlock()
		return err
	} else if hadErr {
		a.mu.Lock()
		a.err = nil
		a.mu.Unlock()
	}
	return nil
}

// Runner is idle or busy; Reset puts it back to idle where it found it
// otherwise (silent: idle is what a fresh check would store too), Start
// takes it on a stale idle (two starters both take it).
const (
	idle = iota
	busy
)

type Runner struct {
	mu    sync.Mutex
	state int
	runs  int
}

func (r *Runner) Reset() {
	r.mu.Lock()
	st := r.state
	r.mu.Unlock()
	if st != idle {
		r.mu.Lock()
		r.state = idle
		r.mu.Unlock()
	}
}

func (r *Runner) Start() bool {
	r.mu.Lock()
	st := r.state
	r.mu.Unlock()
	if st != idle {
		return false
	}
	r.mu.Lock() // want `r.mu is locked again after the section that checked: the write is decided by st`
	r.state = busy
	r.mu.Unlock()
	return true
}

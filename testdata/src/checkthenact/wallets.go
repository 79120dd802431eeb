package checkthenact

import (
	"errors"
	"sync"
)

// Wallet is Account with its sections behind methods: Balance reads under
// the lock, debit and credit move the balance from wherever it is when
// they run. A debit decided by a balance read in an earlier call can
// overdraw, as the inline Withdraw can, but through helpers it is not
// reported, a known miss: in the corpus, a helper moving a count after a
// test of it against a bound was as often one goroutine's bookkeeping (a
// writer that alone fills a window a reader drains, a shortcut out of a
// loop over a running total) as a race, and the code does not say which.
// The rest of this file is what such a rule would have to leave alone.
type Wallet struct {
	mu       sync.Mutex
	balance  int64
	attempts int
	frozen   bool
}

func (w *Wallet) Balance() int64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.balance
}

func (w *Wallet) debit(n int64) {
	w.mu.Lock()
	w.balance -= n
	w.mu.Unlock()
}

func (w *Wallet) Spend(n int64) error {
	if w.Balance() < n {
		return ErrFunds
	}
	w.debit(n)
	return nil
}

// trySpend tests and debits in one section.
func (w *Wallet) trySpend(n int64) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.balance < n {
		return false
	}
	w.balance -= n
	return true
}

// SpendChecked lets the helper test the balance again where it debits:
// silent.
func (w *Wallet) SpendChecked(n int64) error {
	if w.Balance() < n {
		return ErrFunds // the fast path; trySpend decides
	}
	if !w.trySpend(n) {
		return ErrFunds
	}
	return nil
}

// Top reads the balance only for the receipt; the credit happens
// whatever it was: silent.
func (w *Wallet) Top(n int64) (before int64) {
	before = w.Balance()
	w.credit(n)
	return before
}

func (w *Wallet) credit(n int64) {
	w.mu.Lock()
	w.balance += n
	w.mu.Unlock()
}

// Try counts an attempt only when the balance was short: the count is
// another field than the one tested, moved by one whatever happened to
// the balance since. Silent.
func (w *Wallet) Try(n int64) bool {
	if w.Balance() >= n {
		return true
	}
	w.countAttempt()
	return false
}

func (w *Wallet) countAttempt() {
	w.mu.Lock()
	w.attempts++
	w.mu.Unlock()
}

// Freeze sets a flag through a helper after a stale test of the
// balance: a helper that only sets a field is how an owner publishes
// state, and there is no re-check to judge. Silent.
func (w *Wallet) Freeze() {
	if w.Balance() > 0 {
		return
	}
	w.setFrozen(true)
}

func (w *Wallet) setFrozen(v bool) {
	w.mu.Lock()
	w.frozen = v
	w.mu.Unlock()
}

// Disk admits and charges in one section (reserve), then gives back what
// a write did not use: the answer came with the charge, a claim no racer
// can take from it. Silent.
type Disk struct {
	mu   sync.Mutex
	used int64
	max  int64
}

func (d *Disk) reserve(n int64) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.used+n > d.max {
		return false
	}
	d.used += n
	return true
}

func (d *Disk) refund(n int64) {
	d.mu.Lock()
	d.used -= n
	d.mu.Unlock()
}

func (d *Disk) Write(p []byte, write func([]byte) int) bool {
	n := int64(len(p))
	if !d.reserve(n) {
		return false
	}
	d.refund(n - int64(write(p)))
	return true
}

// Dump skips its work once an error was recorded, and records a new one
// by joining it to those before: a stale "no error yet" costs one more
// record, and no error is lost. Silent.
type Dump struct {
	mu  sync.Mutex
	err error
}

func (d *Dump) failed() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.err
}

func (d *Dump) fail(err error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.err = errors.Join(d.err, err)
}

func (d *Dump) Record(write func() error) {
	if d.failed() != nil {
		return
	}
	if err := write(); err != nil {
		d.fail(err)
	}
}

// Sender sends what is pending and then drops what it sent from the
// front; others only append at the back, so the first n are still the
// ones sent. Silent.
type Sender struct {
	mu      sync.Mutex
	pending []string
}

func (o *Sender) snapshot() []string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return append([]string(nil), o.pending...)
}

func (o *Sender) dropSent(n int) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.pending = o.pending[n:]
}

func (o *Sender) Flush(send func([]string) error) {
	batch := o.snapshot()
	if len(batch) == 0 {
		return
	}
	if send(batch) == nil {
		o.dropSent(len(batch))
	}
}

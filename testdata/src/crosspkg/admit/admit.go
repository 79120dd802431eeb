// Package admit admits keys into a bounded set of another package.
package admit

import "crosspkg/store"

type Admitter struct {
	set   *store.Set
	limit int
}

// Admit checks the size and adds in two sections of the set's lock: both
// methods lock internally, so between them the set may fill up.
func (a *Admitter) Admit(k string) bool {
	if a.set.Len() >= a.limit {
		return false
	}
	a.set.Add(k) // want `a.set.mu is locked again by a.set.Add after the section that checked: the write is decided by a.set.Len\(\), read in an earlier section`
	return true
}

// AdmitAtomic lets the set check and add in one section.
func (a *Admitter) AdmitAtomic(k string) bool {
	return a.set.AddIfRoom(k, a.limit)
}

// Report reads the size only to print it.
func (a *Admitter) Report(k string) (int, string) {
	n := a.set.Len()
	a.set.Add(k)
	return n, k
}

// AdmitUnderLimit tests the set's fixed limit, read through a method that
// locks, before adding: the limit never changes, so nothing is stale.
// Silent.
func (a *Admitter) AdmitUnderLimit(k string) bool {
	if a.set.Limit() == 0 {
		return false
	}
	a.set.Add(k)
	return true
}

// Purge removes every key a listing saw: removing one removed since does
// nothing. Silent.
func (a *Admitter) Purge() {
	for _, k := range a.set.Keys() {
		a.set.Remove(k)
	}
}

// PurgeMarked removes the keys a listing found marked: one unmarked in
// between is removed all the same.
func (a *Admitter) PurgeMarked() {
	for _, k := range a.set.Marked() {
		a.set.Remove(k) // want `a.set.mu is locked again by a.set.Remove after the section that checked: the write is decided by a.set.Marked\(\)`
	}
}

// Handover gives name's lease to holder unless a later grant took it in
// between: Renew compares the generation Get handed back.
func Handover(l *store.Leases, name, holder string) bool {
	le := l.Get(name)
	le.Holder = holder
	return l.Renew(name, le)
}

// Claim takes name's lease for holder if it looked free: Acquire looks
// again under its lock and refuses one taken in between. Silent.
func Claim(l *store.Leases, name, holder string) error {
	if l.Get(name).Holder != "" {
		return nil
	}
	return l.Acquire(name, store.Lease{Holder: holder})
}

// ClaimBlindly stores with Put, which looks at nothing: two claimants
// that both found it free both get it, the later one kept.
func ClaimBlindly(l *store.Leases, name, holder string) {
	if l.Get(name).Holder != "" {
		return
	}
	l.Put(name, store.Lease{Holder: holder}) // want `l.mu is locked again by l.Put after the section that checked`
}

// Steal writes the lease back with Put, which looks at nothing: a grant
// made in between is overwritten.
func Steal(l *store.Leases, name, holder string) {
	le := l.Get(name)
	le.Holder = holder
	l.Put(name, le) // want `l.mu is locked again by l.Put after the section that checked: the value written derives from le`
}

// Evict removes k if the set has it: if k went away in between, removing
// it again does nothing. Silent.
func (a *Admitter) Evict(k string) {
	if !a.set.Has(k) {
		return
	}
	a.set.Remove(k)
}

// EvictMarked removes k if its entry is marked: one unmarked in between
// is removed all the same.
func (a *Admitter) EvictMarked(k string) {
	if a.set.IsMarked(k) {
		a.set.Remove(k) // want `a.set.mu is locked again by a.set.Remove after the section that checked: the write is decided by a.set.IsMarked\(k\)`
	}
}

// Use reuses the metadata of name's entry if it has one, or loads it;
// Take then looks name up again and creates the entry if it went away,
// so the Drop after a refusal acts on what Take found, not on Lookup's
// answer. Silent.
func Use(r *store.Refs, name string, load func(string) (string, error), accept func(*store.Ref) bool) bool {
	var meta string
	if ref, found := r.Lookup(name); found {
		meta = ref.Meta
	} else {
		m, err := load(name)
		if err != nil {
			return false
		}
		meta = m
	}
	ref := r.Take(name, meta)
	if !accept(ref) {
		r.Drop(name)
		return false
	}
	return true
}

// UseAlias takes the alias's entry instead: Lookup's answer about name
// still decides the Drop.
func UseAlias(r *store.Refs, name, alias string, load func(string) (string, error), accept func(*store.Ref) bool) bool {
	var meta string
	if ref, found := r.Lookup(name); found {
		meta = ref.Meta
	} else {
		m, err := load(name)
		if err != nil {
			return false
		}
		meta = m
	}
	ref := r.Take(alias, meta)
	if !accept(ref) {
		r.Drop(name) // want `r.mu is locked again by r.Drop after the section that checked: ref was present`
		return false
	}
	return true
}

// Prune removes from inside a loop over the set's iterator, which holds
// the set's lock while the body runs: Remove waits for it for ever.
func Prune(s *store.Set, keep func(string) bool) {
	for k := range s.All() {
		if !keep(k) {
			s.Remove(k) // want `s.mu is held by the iterator s.All while the loop body runs, and s.Remove takes it again: sync.Mutex is not reentrant`
		}
	}
}

// PruneSnapshot removes over a copy: the iterator holds nothing while
// the body runs.
func PruneSnapshot(s *store.Set, keep func(string) bool) {
	for k := range s.Snapshot() {
		if !keep(k) {
			s.Remove(k)
		}
	}
}

// Count only reads in the body.
func Count(s *store.Set, match func(string) bool) int {
	n := 0
	for k := range s.All() {
		if match(k) {
			n++
		}
	}
	return n
}

// DropAll does the same over a generic index.
func DropAll(x *store.Index[string], gone func(string) bool) {
	for k := range x.Keys() {
		if gone(k) {
			x.Drop(k) // want `x.mu is held by the iterator x.Keys while the loop body runs, and x.Drop takes it again`
		}
	}
}

// AdmitIndexed checks the size of a generic index and puts in a second
// section, as Admit does.
func AdmitIndexed(x *store.Index[string], k string, limit int) bool {
	if x.Len() >= limit {
		return false
	}
	x.Put(k, 1) // want `x.mu is locked again by x.Put after the section that checked`
	return true
}

// Evict removes from inside Range, which holds the set's lock while it
// calls the function.
func Evict(s *store.Set, old func(string) bool) {
	s.Range(func(k string) bool {
		if old(k) {
			s.Remove(k) // want `s.mu is held by s.Range while it runs the function handed to it, and s.Remove takes it again: sync.Mutex is not reentrant, so s.Range never returns`
		}
		return true
	})
}

// EvictCopied removes from inside Each, which holds nothing while f
// runs: silent.
func EvictCopied(s *store.Set, old func(string) bool) {
	s.Each(func(k string) {
		if old(k) {
			s.Remove(k)
		}
	})
}

// AdmitIndexedAtomic lets the generic index check and put in one
// section: silent.
func AdmitIndexedAtomic(x *store.Index[string], k string, limit int) bool {
	return x.PutIfRoom(k, 1, limit)
}

// Acquire grants name to holder after asking whether it is vacant:
// another Acquire may grant it between the answer and the Put, and this
// Put takes the lease from that holder.
func Acquire(l *store.Leases, name, holder string, gen uint64) error {
	if err := l.Vacant(name); err != nil {
		return err
	}
	l.Put(name, store.Lease{Gen: gen, Holder: holder}) // want `l.mu is locked again by l.Put after the section that checked: the entry l.Vacant\(name\) looked for was missing in an earlier section`
	return nil
}

// AcquireChecked asks first, for a clear error, and stores with
// PutIfVacant, which looks again under the lock. Silent.
func AcquireChecked(l *store.Leases, name, holder string, gen uint64) error {
	if err := l.Vacant(name); err != nil {
		return err
	}
	if !l.PutIfVacant(name, store.Lease{Gen: gen, Holder: holder}) {
		return store.ErrHeld
	}
	return nil
}

// GrantTicket gives holder a ticket for name when name is not held: the
// ticket is filed under a new id, an entry no racer fills, and name's
// entry is left as it is; two racers file two tickets (silent, as it is
// where the lease table is this package's).
func GrantTicket(l *store.Leases, name, holder string, newID func() string) string {
	if l.Get(name).Holder != "" {
		return ""
	}
	id := newID()
	l.Put(id, store.Lease{Holder: holder})
	return id
}

// Grant makes holder the holder of name when no one holds it: the entry
// found free is the entry filled, and a racer may hold it by now.
func Grant(l *store.Leases, name, holder string) bool {
	if l.Get(name).Holder != "" {
		return false
	}
	l.Put(name, store.Lease{Holder: holder}) // want `l.mu is locked again by l.Put after the section that checked`
	return true
}

// RingFor looks without the lock, then again under the rings' lock
// before building: double-checked locking through another package's
// accessor (silent).
func RingFor(r *store.Rings, id int) *store.Ring {
	if x := r.Get(id); x != nil {
		return x
	}
	r.Locker().Lock()
	defer r.Locker().Unlock()
	if x := r.Get(id); x != nil {
		return x
	}
	x := &store.Ring{ID: id}
	r.Set(x)
	return x
}

// RingForUnchecked builds on the look made before the lock: a racer's
// ring, built in between, is replaced.
func RingForUnchecked(r *store.Rings, id int) *store.Ring {
	if x := r.Get(id); x != nil {
		return x
	}
	r.Locker().Lock()
	defer r.Locker().Unlock()
	x := &store.Ring{ID: id}
	r.Set(x) // want `r.Set stores what r.Get found missing`
	return x
}

// Charge takes n from a meter of the other package after seeing enough
// left, in two sections: another charge in between can take it below
// zero. Not reported, as checkthenact's Wallet.Spend is not (a known
// miss through helpers).
func Charge(m *store.Meter, n int) bool {
	if m.Left() < n {
		return false
	}
	m.Use(n)
	return true
}

// Refill sets the meter again when it found it run out: a setter storing
// what it is handed. Silent.
func Refill(m *store.Meter, n int) {
	if m.Left() > 0 {
		return
	}
	m.Reset(n)
}

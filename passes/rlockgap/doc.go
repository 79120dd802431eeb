// Package rlockgap defines an Analyzer that reports lock upgrades without a
// re-check: a sync.RWMutex read-locked, shared state read, read-unlocked,
// then locked for writing and written on the strength of that read.
//
// # Analyzer rlockgap
//
// rlockgap: report a write under Lock decided by a value read under an earlier RLock
//
// sync.RWMutex cannot be upgraded. Between RUnlock and Lock any other
// goroutine may take the write lock and change what was read, so a decision
// taken under the read lock ("the entry is missing, create one", "the entry
// exists, update it", "the count is n, store n+1") may be stale by the time
// the write lock is held. The race detector cannot see this: every access
// is locked.
//
// Wrong:
//
//	c.mu.RLock()
//	s, ok := c.sessions[id]
//	c.mu.RUnlock()
//	if ok {
//		return s
//	}
//	s = newSession(id)
//	c.mu.Lock()
//	c.sessions[id] = s // may replace a session another caller created and returned
//	c.mu.Unlock()
//	return s
//
// Right:
//
//	c.mu.Lock()
//	if existing, ok := c.sessions[id]; ok {
//		c.mu.Unlock()
//		return existing
//	}
//	c.sessions[id] = s
//	c.mu.Unlock()
//	return s
//
// Helpers count: a method that takes the write lock itself, or writes under
// its caller's lock, is the write; a method that reads under RLock and
// returns the value is the read, and so is one whose error is the answer
// (a checkFree that fails when the name is taken; a find that fails with
// ErrNotFound, tested by err == nil, err != ErrNotFound or errors.Is).
// A struct passed by value is followed field by field, also when the
// helper stamps some of its fields and hands it on: a helper handed an
// options struct that writes using only its bucket does not write what
// the stale read put in another of its fields. A helper that writes only
// in the case of a type switch on an argument (an event dispatcher:
// case *ChannelCreate) writes nothing for a call that hands it a value
// of another concrete type (a rate-limit notice) or nil. An entry read
// under RLock and written through under Lock (a set inside a map of
// sets) is still the map's when the map's entries stay once stored: it
// is made at construction, added to only where a lookup found nothing,
// never deleted from, cleared or handed on.
// A re-check counts when it tests the state
// again under the write lock and, on finding it changed, takes the path the
// fresh state calls for; a re-check that quietly returns when an entry
// vanished drops the update (only on the way where the stale read found
// the entry and skipped creating it), while one that fails with an error
// the caller keeps (returns or tests) tells it, and is not reported. A
// plain helper with no lock of its own (go-cache's get) called under the
// write lock re-checks there as if its body were written inline. So does
// a test that goes on only while a flag of the object read is still
// unset, when the flag is only ever set, never cleared, and every change
// of the state read sets it in the same section (a task's completed flag,
// set with each change of its status; a connection set once to a new
// object, tested against nil). A
// timestamp compared with time.Time's After, Before, Equal or Compare is
// a version test like a < b: a high-water mark stored only when later
// than the one found keeps the newer of the two. So does one stored as
// the larger (or smaller) of itself, read again in the second section,
// and the new value: x = max(x, v), m[k] = max(m[k], v), unless the key
// of the entry is itself stale. "Nothing is known, so fill it in"
// with a helper that adds only the entries still missing keeps whatever
// arrived in between, and is not reported; nor is a value built from
// what the read lock saw and stored as a new entry under a key drawn
// fresh (uuid.NewString()), which replaces no one's. A key is drawn
// fresh also when it comes from a function of the package that fills a
// buffer from crypto/rand or math/rand, or is the id field of an object a
// constructor has just made with such an id (a copy-on-write tree that
// copies a node it found missing under a new id adds a node; a copy
// keeping the old id would replace a racer's). A test from which
// only a later turn of a loop reaches the write (a read loop's lookup
// deciding whether the loop goes on, before the next message's store)
// does not decide that write; nor does a lookup whose missing side only
// goes on to the next turn (continue) create anything a re-check that
// gives up would drop: the next turn looks again.
//
// A double check that tests the copy made under the read lock is
// reported whatever it stores:
//
//	b.mu.RLock()
//	limit := b.limit
//	b.mu.RUnlock()
//	if limit != nil {
//		return *limit
//	}
//	b.mu.Lock()
//	defer b.mu.Unlock()
//	if limit != nil { // limit cannot have changed: read b.limit again first
//		return *limit
//	}
//
// The local cannot have changed, so the second test never fires and every
// caller that found nothing goes on to store (and to fetch, under the write
// lock). The message names the copy and the shared state to read again.
// A guard re-tested the same way (ok := a.balance >= x ... a.mu.Lock();
// if !ok { return }) is reported with the same words.
//
// A copy-on-write update counts as a write of what it copied: a snapshot
// taken under the read lock (cur := r.table), copied outside any lock
// (next := &table{version: cur.version + 1, ...}) and published where it
// was found (r.table = next) loses whatever another writer published in
// between. It is silent when the write section checks that the snapshot
// is still the one copied (if r.table != cur, or the versions compared)
// and starts again otherwise; a compare-and-retry loop of that kind
// (if c.n != seen { c.mu.Unlock(); continue }) is a re-check, though the
// write it gates always happens in the end. What happens after a failure
// exit (if err := resend(); err != nil { return err }) inside a branch on
// the stale value is not decided by that value when it is reached on
// both of its sides whenever the operation succeeds.
//
// Memoising a plain value (a number, a string) computed from the key is not
// reported: two racing callers store the same thing. A plain value the
// caller hands in (a desk's holder, stored under the desk after the
// desk was found free) is a claim, not a memo, and is reported: two
// callers both find the entry missing, both store, and both go on as if
// the entry were theirs. Nor is memoising a
// record (plain fields, and pointers and slices of them; no map, channel,
// lock or function; a generated protocol buffer message counts, its
// runtime bookkeeping is not data) loaded through an interface or from
// another package, or assembled from such records and empty ones: the
// racer's record is replaced by an equal one; nor memoising the children
// a Prometheus metrics vector hands out for a set of labels (the vector
// hands every caller the same child), a constant (a struct literal of
// constants too: cacheEntry{unsafe, nil}), or a package variable
// set only at init. A miss answered by replacing the whole map with one
// got from elsewhere (the table fetched again) is a refresh, not a fill,
// and a copy of an entry whose every field is assigned again before it is
// stored back (an expired cache record refilled) writes back nothing the
// read lock saw. A value computed under the write lock and kept there,
// not handed back to the caller, replaces a racer's with an equivalent
// one, and is not reported either; a new channel or map is no equivalent
// (whoever took the racer's waits on it or adds to it, and that is lost
// with it), and its lazy fill is reported. A fast-path read that is
// checked again under an outer lock held until the write (a fetch lock)
// is superseded by that check. Nor is setting a latch: a variable of the
// function (or one its goroutines share) whose every store, there and in
// its closures, stores the same constant or init-only package variable
// (crossing out entries from several goroutines). State written only by
// one worker goroutine (a dskit service's timer iterations count as
// one), or by a function run one call at a time (it
// writes its owner's fields with no lock held, as do the type's other
// methods that write the state), or by callbacks a
// framework runs one at a time (a reconciler's Reconcile, a telegraf
// input's Gather or output's Write, a caddy setup function's
// get-or-create on its Controller, a flush function a periodic flusher
// keeps for the one goroutine it starts), is not reported either
// (see staleguard), nor a gap on a mutex made on first use with no lock
// held (if i.l == nil { i.l = new(sync.RWMutex) }: a lock only an object
// one goroutine uses can rely on), nor a gap on an object the function
// made itself, allocated or got from a constructor (of its package, or
// of another that exports it as one), when every use of it keeps it
// there: methods that let their receiver reach no other goroutine and
// keep it nowhere (a concurrency-safe set made for one loop: Size, Items
// and Remove; not one whose method starts a sweeper or files it in a
// package list), nor a gap
// inside a test that runs on one goroutine (no go statement, no group's
// Go, no parallel subtest, no helper of the package starting one; a
// case driver handed the test's *testing.T, such as datadriven's RunTest,
// runs its function on the test's goroutine as t.Run does): what
// changes in between, the test changes itself; nor a test's staging of a
// fake it declares when only the code under test starts goroutines, or
// in the fake's own method when every fake is made by such a test. Nor
// is a gap in a set-up method of the lock's owner (Init, Initialize, or
// Open with no argument but a context, returning at most an error),
// whose "already set up?" test goes stale only if two goroutines set
// one object up at once: Go code calls such a method once per object,
// from the goroutine that owns it (an Open with a name to look up is
// not one). Nor is a gap in code that only package initialisation runs, or in a method a constructor calls on
// the object it has just allocated, or on an object the function has
// just allocated and lets out (returns, stores, hands on) only after the
// gap (closures over the variable holding it may run in place or be kept
// in the object; a lock behind one of its pointer fields is not its own),
// or in the function a singleflight
// group runs for a key (see staleguard). Nor is a lookup and store of an
// entry keyed by the *http.Request of one ServeHTTP call (passed down
// through functions only the package calls): the server hands every call
// a request of its own, so no one else holds the key. Sweeps, entries re-tested
// under their own lock and the other check-then-act shapes staleguard's
// documentation lists as silent are silent here too: the engine decides
// them once for both passes.
//
// A helper that takes the lock its caller already holds for writing (a
// lookup that RLocks under the caller's Lock), or takes the write lock
// under the caller's RLock, never returns: sync.RWMutex is not reentrant,
// and a Lock waits for every reader, the caller too. rlockgap reports it
// at the call, with both acquisitions, where it is certain (see
// staleguard, which reports the same for a sync.Mutex), also when the
// helper takes the lock through another helper it calls first. An RLock
// under an RLock goes through until a writer's Lock comes in between:
// the writer waits for the first read lock, the second RLock waits behind
// the writer, and both hang (the sync documentation prohibits recursive
// read locking for this reason). It is reported where some function of
// the package write-locks the same lock; a lock only ever read-locked in
// the package is left alone, and so is a recursive RLock in a test that
// starts no goroutine, itself or through the package code it calls, that
// could take the write lock in between. Nor is one where every write lock
// of it is taken by (or for) a method of the same object that, like the
// reader, touches a field of the object with no lock held, one of them
// writing it: a batch builder whose Add bumps its count and write-locks
// its per-key batches while Flush, reading the count, RLocks them twice.
// Two such calls at once would be a data race, so callers already run
// them one after the other; this holds only where the lock belongs to
// that object alone (a new mutex it made, not one handed to it). The helper's reads are under the caller's
// lock: no gap is reported for them. Where the helper only locks around a
// call of another function with its own arguments, the fix calls that
// one; where it only locks around one expression (a Len returning
// len(s.keys), a Key(i) returning s.keys[i]), the fix reads that
// expression in place of the call, the call's receiver and operands put
// for the helper's, where that means the same (the helper is this
// package's, the expression and the operands call nothing but len or cap,
// no other name in it is shadowed at the call); where the helper locks
// for its whole body (the lock, its deferred release, then anything that
// leaves the lock alone), the fix moves the body to a variant for callers
// that hold the lock (Keys keeps its lock and returns s.keysLocked(); the
// caller calls keysLocked), unless the caller holds a read lock and the
// helper writes, a parameter is unnamed or the variant's name is taken.
// Neither is reported in a method nothing can run (staleguard's
// documentation says which).
//
// The same holds for the body of a range-over-func loop over an iterator
// that holds the lock while it yields (a method returning a closure that
// RLocks, ranges over the map and yields each entry), and for a function
// handed to a method that calls it under the lock (a Range visiting
// entries under RLock, a WithLock passing the map under Lock): the body
// or the function runs under that lock, so one that removes an entry
// through a helper that takes the write lock, or takes the lock itself,
// waits for the iterator or method, which waits for it. It is reported
// where the body takes the lock, naming the iterator or method; that
// must hold the lock, taken itself, at every call of yield or of the
// function (one that copies under the lock and calls after unlocking, or
// starts the function on a goroutine, is silent). Iterators and methods
// of other packages count through their facts. No fix: collect what the
// loop finds and act on it after the loop.
//
// Fix: for lazy initialisation, and for a test that decides a write,
// lockgap inserts the re-check after the Lock. Where the read section
// leaves early itself, the same test and the same way out are inserted,
// releasing the write lock (nothing, under a deferred Unlock):
//
//	b.mu.Lock()
//	defer b.mu.Unlock()
//	if b.running {
//		return nil
//	}
//
// not where the way out does more than leave, the test calls a function,
// or a value with a Close method made between the sections would be
// dropped unclosed. Where the early return cannot be repeated (the miss
// is handled inside its branch), the map store keeps the entry a racer
// stored and the caller goes on with it:
//
//	if existing, ok := patterns[src]; ok {
//		p = existing
//	} else {
//		patterns[src] = p
//	}
//
// offered only when the value stored is a local variable that the
// function, after the store, uses and only returns: one handed on
// (started, registered, counted on) would be the racer's entry handed on
// again, and one not used at all would have the caller go on as if it had
// stored it.
// Where the write is a call of a setter that only locks around plain
// writes (assignments, appends, increments and deletes that call
// nothing, of its receiver and parameters), these fixes write the setter
// out at the call: the lock, the re-check, the writes, the unlock.
// Where the read is a call of a getter that only locks around one
// expression (return len(r.pinned)), the re-check reads that expression
// in place of the call:
//
//	if r.pins() >= r.maxPins {
//		return false
//	}
//	r.mu.Lock()
//	if len(r.pinned) >= r.maxPins {
//		r.mu.Unlock()
//		return false
//	}
//	r.pinned = append(r.pinned, name)
//	r.mu.Unlock()
//
// For a double check of the copy, it reads the shared state into
// the copy again just before the second test (where every name there
// means what it meant at the copy). Silence a finding with //lockgap:ignore rlockgap <reason>.
package rlockgap

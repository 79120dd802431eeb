// Package staleguard defines an Analyzer that reports check-then-act
// across critical sections: a guard computed while a lock is held, the lock
// released, and a mutation done under the same lock later on the strength
// of the guard, without testing it again.
//
// # Analyzer staleguard
//
// staleguard: report a mutation gated by a guard computed in an earlier critical section of the same lock
//
// Between Unlock and the next Lock any goroutine may change what the guard
// tested: a queue checked for room may be full, a balance checked for
// funds may be spent, an entry checked for existence may be gone. The race
// detector cannot see this: every access is locked. staleguard covers
// sync.Mutex, write-to-write sections of a sync.RWMutex, and guards that
// flow through helper methods (a Len() that locks, then an Add() that
// locks; a HasRoom() that answers len(q.items) < q.max under the lock, then
// a Put() that locks; a checkFree(name) error that returns ErrTaken or nil
// after a lookup under the lock, then a store; a Get(name) (T, error) that
// fails with ErrNotFound, then a Put() where it failed, the failure tested
// as err != nil, err == ErrNotFound or errors.Is(err, ErrNotFound); also
// through wrappers that always call them, and wrappers that
// lock and hand over to a ...Locked helper expecting the lock held) or through
// closures called in place to scope a defer (func() { q.mu.Lock(); defer
// q.mu.Unlock(); n = len(q.items) }()); read-to-write upgrades of a
// sync.RWMutex are rlockgap's. A helper that only writes a field (not a
// map or slice) is not reported after a stale test, whether it sets the
// field to what its caller hands it (assign(seat, guest) where seatFree
// said free) or moves it from where it is (debit(n) after Balance()):
// in real code such writes were as often one goroutine publishing or
// keeping its own state as a race, and the inline form, which is
// reported, is where to look.
//
// Wrong:
//
//	q.mu.Lock()
//	n := len(q.items)
//	q.mu.Unlock()
//	if n >= q.max {
//		return false
//	}
//	q.mu.Lock()
//	q.items = append(q.items, job) // the queue may be full by now
//	q.mu.Unlock()
//
// Right:
//
//	q.mu.Lock()
//	defer q.mu.Unlock()
//	if len(q.items) >= q.max {
//		return false
//	}
//	q.items = append(q.items, job)
//
// A sync.Map is a map with a lock inside, and each of its methods a
// critical section: a Load whose answer decides a later Store (or
// Delete) on the same map is the same check-then-act. A Clear that a
// miss only leads to (a bounded cache emptied when its count, read
// again under its lock, is full) is a reset, not a removal of the entry
// looked up, and is not reported. Nor is a Store under another key than
// the one that missed: a login that finds no session for its cookie and
// starts one under a new random id fills another entry, and racing
// logins make two sessions, neither replacing the other. Keys are told
// apart by what they are computed from (the same variable, or a call of
// the same function, make them one key). A removal that undoes what the
// function itself stored under the same key since the look (a runner
// registered for a job found without one, and unregistered when it fails
// to start) is decided by that store, not by the look, and is not
// reported; a store of a constant (a set's mark, which a racer may have
// set too) does not count.
//
// Wrong:
//
//	if re, ok := p.compiled.Load(expr); ok {
//		return re.(*regexp.Regexp), nil
//	}
//	re := regexp.MustCompile(expr)
//	p.compiled.Store(expr, re) // a racer's entry is replaced
//
// Right:
//
//	actual, _ := p.compiled.LoadOrStore(expr, re)
//	return actual.(*regexp.Regexp), nil
//
// The methods that test and write in one call (LoadOrStore,
// CompareAndSwap, CompareAndDelete, LoadAndDelete) re-check, as a second
// section that looks again does; so does one that comes between the check
// and the write (a placeholder put in with LoadOrStore), also when only
// the way to the write goes through it (a lookup on a cancel path that
// ends in continue, then a LoadOrStore claiming the entry for the rest),
// and a helper whose one call is such a method. Swap replaces on
// purpose. Memos whose racers all store the same thing (the children a
// Prometheus vector hands out for a set of labels, a constant or a struct
// literal of constants, also through a typed wrapper's Store, a package
// variable set only at init, a value computed in the second section and
// not handed back) are not reported; a channel or map made there is not
// the same thing as a racer's (its waiters, or the entries added to it,
// are lost with it), so "it is not open yet, so make the channel" is.
// Nor is a plain value (a number, a string) computed from the key; one
// the caller hands in (a holder's name) is a claim, and is reported.
// Maps of per-key mutexes,
// or of entries their users lock, are mutexmapdelete's.
//
// Not reported: a second section that tests the guard again (re-reads the
// state, compares a version or generation, or goes on only while a flag
// of the object is still unset that every change of the state sets in
// the same section and nothing clears: a task's completed flag, or a
// connection set once to a new object and tested against nil); a claim, where the first
// section itself moves the state it decided on (pending to running, an
// in-flight entry inserted) so no one else can pass, also when a helper
// does it and hands back only the entries it inserted where they were
// missing (tokens taken for the caller, released one by one later), or
// that cuts the element it hands back out of its slice (a pooled
// connection checked out, appended back after use), or that fills a
// field only where it is empty, with a new object it hands back, and
// fails while another holds it (a probe slot, emptied by its owner when
// done); a value that only
// feeds logging; what is stored, derived from the stale read, as a new
// map entry under a key drawn fresh (uuid.NewString(), a package's own
// id function reading crypto/rand, or the id field of an object just
// made with one: the next page of a listing under its own token), which
// replaces no one's; an entry of a
// map local to a function that starts one goroutine per key of a range
// over a map (go, errgroup.Group.Go, sync.WaitGroup.Go), read and
// written by that key's goroutine only, when no one else writes the map
// once they run (a loader marking the directories it cannot read); a
// method whose doc comment forbids concurrent calls ("should only be
// called from a single goroutine at a time", "not safe for concurrent
// use"), when every writer of the state read is such a method or runs
// only under one (a test clock the test's goroutine moves); guard and mutation in one section; an entry keyed by
// the *http.Request of one ServeHTTP call, which no other call holds; an outer lock held
// across both sections (a textproto.Pipeline turn counts as one, and so
// does a busy flag: a bool field set, in the section that found it unset,
// only where the code gives up or waits while it is set, and cleared
// later, as one receiver at a time claims a stream; so does
// a lock every caller holds (a method value handed out, or a call through
// an interface, counts as a caller holding none) when the state's other
// writers hold it too (where the state belongs to another package's
// object kept in a field, a cache, only writers reaching it through that
// field count; one that empties it, storing a new empty map, cannot
// bring back an entry found missing), or that a function
// named ...Locked says its callers hold, a hook or method value calling
// it included, unless it releases that lock itself, a keyed lock (Lock(key), Unlock(key))
// every caller holds on one of the call's arguments, a closure that sync.Map's Range or the sort
// and slices functions call back counting as called where it is handed
// over; all of these only when the type's other methods that write the
// state read also hold some lock where they write it, or are only called
// with one held (a lock that keeps a rebuild from racing another rebuild
// does not keep out a delete that never takes it), a method that only
// adds to a count the test found large enough aside; so does a claim taken in the section of a mutex that made the
// read, when every change of the claim map holds that mutex); removing
// an entry a stale test found there, also through a helper whose one
// result is only the found result of its lookup; removing from a map
// what the helper call that decided had itself inserted there (a create
// rolled back when persisting it fails); removing
// the entry looked up once a call on it succeeded (a racer's call fails,
// or it removes the same entry); a helper that looks the entry up again
// itself before writing; going through a listing that holds every
// element whatever the stale state said, which only chose their order
// (mirrors that failed before tried last), and recording what each
// attempt found; removing, one by one, every entry a listing saw
// (a sweep: removing one a racer removed already does nothing), unless the
// listing kept only the entries a test of their state let through, whose
// verdict may be stale (a Renew in between, whether a helper or an
// earlier section of the function itself made the listing; a test of the
// keys alone, a prefix or a pattern, still holds); removing an entry after a loop over
// its items ended with every call on them working (acknowledged chunk by
// chunk); removing, with a helper that removes only what is still there,
// an entry a test under another lock picked, when the stale test was a
// count that only decided whether to look (relays in use dropped from the
// candidates); a command (package main) none of whose functions starts a
// goroutine, when the gap's function and every writer under its lock run
// only where main and init call them (a cache behind a precautionary
// mutex in a one-goroutine tool); state that only callbacks a framework runs one at a time
// write, the gap's function running only under them too: a
// controller-runtime reconciler's Reconcile (one worker, unless the
// package names MaxConcurrentReconciles or GroupKindConcurrency; a
// manager-wide setting made in another package is not seen) and what
// only it calls, a telegraf input's Gather (and its Start, which the
// agent runs first) or output's Write, one run at a time per plugin, or a
// caddy v1 setup function, func(*caddy.Controller) error, and the
// instance storage its Controller reaches (CoreDNS plugins), or a method
// whose one use is to be handed, at one place not in a loop, to a
// function of any package that keeps it for the one goroutine it starts
// per call and lets nothing else call it (a periodic flusher's flush:
// one run at a time per object; not for package variables, which every
// object's flusher shares); state that only one worker goroutine of the package writes (started once by one go statement, or by sync.WaitGroup.Go or errgroup.Group.Go, running a loop, or the running function or each timer iteration a dskit service runs on its own goroutine; writers that only add missing entries do not count against an entry found there; a
// handler the worker's loop reaches through a package dispatch table,
// filled once at init and only indexed and called, runs on the worker;
// so does an exported method of an unexported type no other package can
// get hold of), which
// the lock merely publishes to readers (the function starting it may
// write the state first, before the go statement, itself or through
// methods it calls on the new object: a checkpointer recovering its last
// offset; a lifecycle method, Open, starting it on its receiver may too,
// through methods only it calls there and closures it runs in place, or
// hands to a function that calls them back before returning, in any
// package: a store wrapper's View over bbolt's); and
// Close may write it after waiting on
// the sync.WaitGroup the worker is added to and marks done), or a worker
// started once per object
// (a method of an object just allocated or made by a constructor of the
// package, newChild(conn) for each accepted connection, or a closure over the receiver
// of a method called once on each object just allocated: a server's
// signal handler) that alone writes a field of its own object (others
// only taking entries out cannot bring back one it found missing, and
// make its own removal a no-op); a self-locking holder (a map type with its own mutex) that
// such a worker keeps in an unexported field, the field used only by the
// worker's functions to call the holder's methods and filled before the
// worker starts (a timer wheel's key index); a function that also writes
// a field of the lock's owner with no lock held (two calls at once would
// be a data race the race detector reports, so its callers run it one at
// a time: a producer's event loop driving its batcher) and alone writes
// the state it read, other writers being helpers only it calls on that
// owner or methods of the same type that also touch, with no lock held,
// a field it writes (a collection whose every change re-sorts a plain
// slice); a lock made on first use with no lock held (if p.l == nil {
// p.l = new(sync.RWMutex) }), which two goroutines meeting the object
// first would each make for themselves, so only an object one goroutine
// uses can rely on it (in the type's package and, through a fact, in the
// packages using it); an entry such a worker alone
// removes, when others only add entries that are missing (an event loop
// draining a retry queue that watchers feed; a janitor started with each
// conn, forgetting the peers its senders add, each looked up again under
// the write lock by the same key, addr.String() asked twice); storing the caller's value
// (or a constant, or a field the caller's argument holds and the
// function never writes: r.URL.Host) where the stale test found the state
// different from it
// (what a fresh test would do too), and the rest of such a section when
// it only stores what that value looks up or what it reads fresh, with no
// count or append (a track switched to a packet's payload type; a table
// loaded again when the file's size and time differ from what was loaded,
// storing what it stat'ed: the same getter asked twice is one value; a
// cache older than its lifetime rebuilt from what the section reads and
// stamped with the clock's time); a gap inside a test that runs on one
// goroutine (the change in between is the test's own), or on the state
// of a fake the tests declare that only the tests' own goroutines write
// (test functions, subtests that do not run in parallel, helpers only
// they call), not reached from a package variable; a test taking the
// lock of the code under test itself (a field of a type the package
// declares outside its tests, reached directly or through the test's own
// setup bundle) to stage a state by hand; giving back a
// reference counted in an entry found earlier, in the section that drops
// the entry once its count is zero (a reference-counted key lock: the
// caller's own count pins the entry); acting on an entry
// found earlier while holding the entry's own lock, after testing the
// entry's state under it (a session dropped only once emptied under its
// lock: the test finds a racer's work done); a set-up method of the
// lock's owner (Init, Initialize, or Open with no argument but a
// context, returning at most an error) testing whether it was already
// set up, which its owner calls once per object (Open(name) and its kin
// are not set-up methods); code that only package
// initialisation runs (a registry filled from init functions), unless the
// package's init code starts a goroutine; an object the function has
// just allocated and lets out only after the gap (a value built and
// filled, then returned), also when closures capture the variable
// holding it, as long as they run in place (a range-over-func loop's
// body) or are kept in the object itself, and when its lock is its own
// (not behind a pointer field, which may point to shared state); a method that every caller in
// the package hands an object it has just allocated and shown no one
// (a constructor restoring its new value before returning it), when the
// method keeps the object to itself and starts no goroutine; a method
// that reads and writes its receiver's own state when the constructor
// runs it once on the new object (after functional options that only
// set fields) and afterwards only the goroutine a method starts inside
// the object's own sync.Once runs it (a refresher on a ticker); a caller's
// outer lock counted for an exported method of an unexported type that
// no other package can get hold of (no exported result, field or
// variable carries it, no struct embeds it, no interface holds it; for a
// generic type, no instance of it); with
// lockgap's own driver, a gap reached only through exported functions
// or methods that every caller in the module calls with a lock held (a
// ledger's Reserve, called under the biller's per-account stripe), the
// type's exported methods that write the state with no other lock held
// (the ledger's Credit) counting as such entries too; a
// function a singleflight group runs for a key (a Do or DoChan method of a type
// named Group, given a string key and the function: x/sync's
// singleflight, and groups like it), which acts as an outer lock across
// both its sections; a group of another name (a SingleFlight interface, a
// flightGroup, with Do, DoEx or DoChan) only where every writer of the
// state read also runs inside a flight, since such a group is an outer
// lock only against other flights; a slot the function takes for its run
// (the first section finds an in-progress field unset and sets it, waiting
// or leaving when it is set, the second unsets it), where that function
// alone writes what the first section read; a second section that goes
// through every element a queue holds and then empties it, after the
// first found the queue empty or an entry missing; messages cut out of a
// list in the first section whose failed ones the second appends to the
// list as it is then; a gap whose second section opens only
// past a test of a boolean parameter that every call of the function (an
// unexported one, or one no other package can call) answers the other way
// (a prompt every caller turns off); a gap or a lock taken again in a
// method nothing can run: a method of such a hidden type that the
// package never calls, hands out or starts, while code outside the
// type's own methods does use another of its methods (a backoff handed
// out only as its Step method value, whose Backoff no one can call). A
// type only its own methods use is still checked: that is code not
// wired in yet, and the report says what happens once it is.
//
// What counts as the decision and its sections also follows helpers the
// lock's conventions name: a helper that reports whether it found an entry
// (if c.Has(k) { return }; c.Put(k, v)) decides on existence, and so does
// one that answers len(c.pending) > 0 (true where there is something), as the test inline would
// (a CancelAll that cancels whatever is in flight once a stale test said
// something was is silent, since the loop finds what is there now); a struct read
// whole into a local under the lock and tested field by field later is a
// read of that state; a helper named ...Locked, or whose doc comment says
// the lock must be held, reads and writes in its caller's section, while a
// plain getter also called with no lock held does not start a gap (a read
// it makes under a caller's lock still re-checks in that section: an Add
// that refuses a key its unlocked lookup finds, as go-cache's does). A
// re-check that gives up with an error the caller keeps is heard, not an
// update lost quietly. Also not reported:
// what a branch taken because a length test found the collection large
// adds to that collection (a cache found nearly full that reloads an
// entry: the stale count only overstated the size, and the bound was
// never kept on that side; removals there stay reported); an unexported
// pointer or plain field set only where its object is built, which no
// later section can change; a later write section that tests the same
// state again and claims it (a shutdown that re-checks and clears under
// the lock), which replaces the stale decision; a helper that fills a miss with a constant or an
// empty struct, which every racer stores alike; a helper, or a closure
// called in place, that takes a field's value and leaves a new one behind
// (a pending batch swapped for an empty map): its caller owns what it got,
// as after a claim, and may put entries back; a helper called once a loop
// over a stale listing has gone through it, which fills no entry the
// listing missed and removes nothing (a folder's Remove after its listed
// children were removed, refreshing the listing and refusing a folder not
// empty now): reaching the end of a listing bounds nothing, unless the
// loop's body tested what the listing held (a search that found no
// match, so adds: that stays reported).
//
// A search that keeps what it found in a flag or an index (found = true;
// break, or idx = i) decides as the comparison that set it, when it sets
// it under the lock: acting on it in a later section is reported as a
// test of what the search went through. A flag set after a section (joined
// = true once a registration is done) records what the function did, not
// what it found, and decides nothing. The body of a range-over-func loop
// over a function value or another package's iterator (maps.All(m),
// slices.Values(s)) runs in place, in the section around the loop, as a
// range loop's body does; what it found is a test of what it went
// through, and such a loop in the second section over what the first
// read, as it is now, re-checks it.
//
// A helper that locks a sync.Mutex its caller already holds is reported
// too, as a deadlock: the mutex is not reentrant, so the call never
// returns (rlockgap reports the same for a sync.RWMutex). Only where it is
// certain: the caller holds the lock on every way to the call, taken by a
// Lock of its own, and calls nothing that may unlock it meanwhile; the
// helper locks it in its first block, before releasing anything, itself
// or through the first block of a helper it calls there (up to three
// deep; the message names the chain); the lock is a field of one object,
// not of an element picked from a collection.
// A helper that locks only when its caller says it does not hold the lock
// is left alone. Where the helper only locks around a call of another
// function with its own arguments (total locks and returns
// totalLocked()), the fix calls that function instead; where it only
// locks around one expression (return r.burst), the fix reads that in
// place of the call; where it locks for its whole body, the fix moves the
// body to a variant for callers that hold the lock and calls that, as in
// rlockgap. The body of a
// range-over-func loop whose iterator holds a mutex at every yield, or a
// function handed to a method that calls it with the mutex held (a Range
// or ForEach), that takes the mutex again is reported likewise (see
// rlockgap).
//
// Fix: where the guard is a plain expression over guarded state followed
// by an early return (after the first section, or inside it, releasing
// the lock), staleguard inserts the same test and return at the top of
// the second section; where it cannot, a map store that fills a miss
// keeps the entry a racer stored, as in rlockgap. Where the second
// section is a call of a setter that only locks around plain writes, the
// fix writes it out at the call with the test first; where the guard was
// read by a getter that only locks around one expression, the test reads
// that expression (see rlockgap).
// A sync.Map Store that fills a miss becomes
// a LoadOrStore that keeps the entry a racer stored first, when the value
// stored is a local variable that can take the winner:
//
//	if actual, loaded := p.compiled.LoadOrStore(expr, re); loaded {
//		re = actual.(*regexp.Regexp)
//	}
//
// A Store of what the caller was handed (a guest's name under a room the
// Load found free) is a claim, not a fill: the racer's entry is not one
// to go on with, so the LoadOrStore leaves as the Load's hit does, where
// that returns constants, nil or package names. So does a Store whose
// Load only asked whether the key was there, its hit branch a return
// and nothing else (a job's fingerprint already queued):
//
//	if _, loaded := r.booker.LoadOrStore(room, guest); loaded {
//		return errBooked
//	}
//
// A double check that tests, in the second section, the local the first
// one set (conn := d.conn ... d.mu.Lock(); if conn == nil { d.conn = dialed },
// or n := len(q.items) ... if n >= q.max { return false }) says so: the
// local cannot have changed. A lazy initialisation checked that way is
// reported whatever it stores (see rlockgap). The fix sets the local again
// just before the second test (n = len(q.items)).
//
// Silence a finding with
// //lockgap:ignore staleguard <reason>.
package staleguard

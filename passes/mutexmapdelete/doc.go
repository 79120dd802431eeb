// Package mutexmapdelete defines an Analyzer that reports per-key mutex
// maps whose entries are removed while another goroutine may hold or wait
// on them, and sync.Map keys that can never match what the map stores.
//
// # Analyzer mutexmapdelete
//
// mutexmapdelete: report removal of a held per-key mutex from its map, and sync.Map keys of the wrong type
//
// A keyed lock hands out one mutex per key from a map (a sync.Map filled
// with LoadOrStore, or a plain map under a lock). Removing an entry while
// the mutex may be held or awaited splits the lock: a goroutine already
// waiting on the removed mutex acquires it, a newcomer finds no entry and
// stores a fresh mutex, and both run for the same key. The race detector
// cannot see this: every access is synchronised.
//
// Wrong:
//
//	v, _ := c.locks.LoadOrStore(svc.UID, new(sync.Mutex))
//	mu := v.(*sync.Mutex)
//	mu.Lock()
//	return func() {
//		mu.Unlock()
//		c.locks.Delete(svc.UID) // a waiter on mu and the next caller both proceed
//	}
//
// Right: keep the entries (one mutex per key stays in the map), or count
// the holders under the map's own lock and delete only when the count
// drops to zero:
//
//	l.mu.Lock()
//	e := l.entries[key]
//	if e == nil {
//		e = &entry{}
//		l.entries[key] = e
//	}
//	e.refs++
//	l.mu.Unlock()
//	e.Lock()
//	...
//	e.Unlock()
//	l.mu.Lock()
//	e.refs--
//	if e.refs == 0 {
//		delete(l.entries, key)
//	}
//	l.mu.Unlock()
//
// The count may also include the holder itself: delete while it is one,
// else decrement (a count kept in the entry; a count of the whole map's
// keys says nothing about who waits on this one).
//
// Also correct, and not reported: lockers that, after locking, check that
// the map still holds the very mutex they locked and retry otherwise, with
// the removal done while holding it. Nor is a removal made while holding,
// for writing, a lock that every locker holds (in either mode) from before
// it locks a mutex of the map until it has unlocked it, in the same
// function, when no mutex of the map is handed out: no one can then hold
// the removed mutex or wait on it. The lock may be held by the removal's
// callers, when the function removing runs only where its package calls
// it. Holding that lock only for reading is not enough: other readers may
// be waiting on the mutex. The lock is named by its field, also when the
// field is a pointer to it (lock *sync.RWMutex shared with snapshots).
//
// A map holds locks when it is given *sync.Mutex, *sync.RWMutex, or a
// pointer to a struct that holds one and only bookkeeping besides (counts,
// flags) and whose mutex callers lock. A struct whose methods take its
// mutex and let it go again before returning (in a function they defer,
// too) guards its own fields: dropping it loses nothing. Maps are named by the struct field
// or package variable holding them, so stores, locks and removals in
// different functions of a package are joined; thin wrappers around a
// sync.Map defined in the package count as the operation they forward.
// A map filled in one package and emptied in another is not followed
// (no facts cross packages yet).
// A map of records that carry a mutex beside their data (a statistics
// item whose sample lists have their own lock, locked by its users) is
// judged the same way and worded as entries: replacing one also sends
// what its holder records to an entry no longer in the map.
// Removals are Delete, LoadAndDelete, CompareAndDelete, Clear, delete and
// clear; Swap, CompareAndSwap and Store replace a lock when the map is
// also filled by LoadOrStore or the Store follows a lookup. A removal in a
// function a test registers with Cleanup is teardown: it runs when the
// test and all it waited for are done, and is not reported. Nor is one a
// test (or a subtest, or a sub-benchmark) makes first thing, before it
// has started anything, in a test that never calls Parallel (nor does the
// test it is a subtest of): the go test
// driver runs it alone, and a test resetting the entry of its own name
// clears a lock no one can hold yet.
//
// Separately, for every sync.Map: a Load, Delete, LoadAndDelete or
// CompareAndDelete whose key has a dynamic type different from every key
// stored never matches (a key stored as string(uid) is not found by uid of
// a named string type). Maps that are exported, whose address is passed
// elsewhere, or that store keys of unknown dynamic type are not judged.
//
// Fixes: LoadAndDelete becomes Load and a removal statement is dropped
// (keep the lock; the map grows by one entry per key); a mismatched key is
// converted to the stored key type. Silence a finding with
// //lockgap:ignore mutexmapdelete <reason>.
package mutexmapdelete

package lockflow

import (
	"fmt"
	"go/constant"
	"go/token"
	"go/types"
	"os"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// GapKind says why a gap is harmful.
type GapKind uint8

const (
	// LostUpdate: the written value (or the key or element written)
	// derives from the stale read.
	LostUpdate GapKind = iota + 1
	// StaleTarget: the write goes through a pointer read in section A; the
	// object may no longer be the one the shared state holds.
	StaleTarget
	// LazyInit: section A found an entry missing; section B stores a new
	// one without looking again, replacing whatever another goroutine
	// stored in the meantime.
	LazyInit
	// Dropped: section B looks again, finds the entry gone, and gives up
	// quietly, although A's own path for a missing entry creates it.
	Dropped
	// Gated: the stale value decides whether B writes.
	Gated
)

// Gap is one finding of the engine: a value read in section A of a lock
// decides a write in a later section B of the same lock, and B does not
// re-establish the decision.
type Gap struct {
	Fn   *ssa.Function
	Kind GapKind
	Lock Path

	AMode, BMode     Mode
	AOpen, BOpen     token.Pos // the Lock/RLock call, or the helper call that locks
	AHelper, BHelper bool
	AReleases        []token.Pos // the unlocks that close A

	Read    token.Pos // the stale read (or the helper call returning it)
	Write   token.Pos // the write (or the helper call that writes)
	ReadLoc Path      // what the stale read read
	Removal bool      // the write removes (an entry, a field's value)
	// BInPlace: B is a closure called in place (to scope a defer); BOpen
	// is the Lock inside it.
	BInPlace bool
	AInPlace bool // the same for A
	// OrStale: a LazyInit write runs when the entry was missing and also
	// when it was there but failed another test (expired, outdated).
	OrStale bool
	// Claim: a LazyInit store records what the caller handed in (a
	// holder's name), not a value the entry's key decides: a racer that
	// also found the entry missing claimed it too.
	Claim bool
	// MissOnly: a LazyInit write runs only where the lookup found the
	// entry missing (the missing branch dominates it), not on a way that
	// skipped the lookup.
	MissOnly bool
	// Emptiness: the stale test asked whether a collection was empty,
	// not whether an entry was there.
	Emptiness bool
	// FoundBy: the stale read is a helper's answer to whether an entry is
	// there (c.Has(k)), not the entry itself.
	FoundBy bool
	// Picked: B runs in a loop over a listing made in A of the entries a
	// test of their state let through.
	Picked bool
	// Copied: a LostUpdate whose value is a copy built from what the
	// stale read pointed to, stored back where it was found (storedBack).
	Copied bool
	// CopyRecheck: B tests again the very value A read (the local copy)
	// instead of reading the shared state again; positions inside or
	// around that test.
	CopyRecheck []token.Pos

	// When B is a helper call: how the helper names the lock, relative to
	// its receiver or parameters (BLockParam), e.g. ".mu"; for a package
	// variable (BLockParam -1), the whole name ("registryMu").
	BLockParam int
	BLockSteps string

	// The instruction that opens B (a Lock call or a helper call).
	BOpenInst ssa.Instruction

	// InitEntries: the gap's function runs only at initialisation or
	// through these exported functions (full names); the driver drops the
	// gap if every call of them in the module is made at initialisation
	// (entries.go).
	InitEntries []string
	// FreshEntries: the gap's lock belongs to an argument of an exported
	// function that every call in its package hands an object it has just
	// made; the driver drops the gap if every use of these functions in
	// the module is such a call (entries.go).
	FreshEntries []string
	// LockedEntries: the gap's function runs, outside calls made with a
	// lock held, only through these exported functions; the driver drops
	// the gap if every use of them in the module is a call made with a
	// lock held (lockedentries.go).
	LockedEntries []string

	// ownerUnlocked: the function also writes a field of the lock's owner
	// with no lock held (see oneAtATime).
	ownerUnlocked bool
	// countNonzero: the stale read only gates the write, by tests that
	// found the integer it read not zero (see countStaysNonzero).
	countNonzero bool
	// atLeast: the stale read only gates the write, by tests that found
	// the integer it read at least as large as something.
	atLeast bool
	// atomicInA: section A loads a value through sync/atomic (a field an
	// entry's users update with no lock, or under the read lock): writers
	// the engine does not count as the state's (see ownedByWorker).
	atomicInA bool
	// present: the write comes only where A found the entry it read there
	// (past a nil or comma-ok test): a writer that only adds missing
	// entries cannot have changed it.
	present bool
	// absent: the write comes where what A looked for was not there: an
	// entry found missing, or a search whose every element compared
	// unequal (if id == want { return }). Removing more cannot undo that.
	absent bool
	// claimChains: every stale read that decides the write was made in
	// a section of an outer mutex in which the function then took the
	// claim it holds at the write (claimTakenInSection); the gap goes if
	// each claim map is guarded by that mutex (claimedInSection).
	claimChains []claimChain
}

type staleDecision struct {
	read    int
	block   *ssa.BasicBlock
	missing int
	creates bool
	// emptiness: the test asks whether a collection is empty (len(x) >
	// 0), not whether an entry is there.
	emptiness bool
}

// findGaps evaluates every write against the reads that reach it.
func (fs *funcState) findGaps() []*Gap {
	if len(fs.reads) == 0 || len(fs.writes) == 0 {
		return nil
	}
	var gaps []*Gap
	seen := make(map[[2]int]bool)
	writesByBlock := make(map[*ssa.BasicBlock][]int)
	for i, w := range fs.writes {
		writesByBlock[w.instr.Block()] = append(writesByBlock[w.instr.Block()], i)
	}
	decisions := fs.staleDecisions(writesByBlock)
	fs.index(decisions)
	if debugEnabled {
		for _, d := range decisions {
			fmt.Fprintf(os.Stderr, "  decision read=%d block=%d missing=%d creates=%v\n", d.read, d.block.Index, d.missing, d.creates)
		}
	}

	for wi := range fs.writes {
		w := &fs.writes[wi]
		for _, h := range w.held {
			if h.mode != Write || h.claim {
				continue
			}
			data := fs.dataTaint(w.data)
			fs.storedBack(w, &data)
			all := append(bitset(nil), data...)
			all.unionWith(fs.blockCtl[w.instr.Block().Index])
			report := func(ri int, g *Gap) {
				a, _ := fs.reads[ri].held.lookup(h.key)
				k := [2]int{a.openers[0], h.openers[0]}
				if g == nil || seen[k] {
					return
				}
				seen[k] = true
				gaps = append(gaps, fs.describe(g, ri, w, a, h))
			}
			if fs.restores(w) {
				continue
			}
			// Of the stale reads that decide this write, name the most
			// specific one (the map entry rather than the map); of
			// equally specific ones, one whose value the write carries
			// (a lost update is the plainer story than a stale test).
			best, bestDepth := -1, -1
			var bestGap *Gap
			// Reads a claim taken in their section serialises with w
			// (chains), unless some read that decides w is not one.
			var chains []claimChain
			unchained := !slices.ContainsFunc(w.held, func(c heldLock) bool { return c.claim && strings.HasPrefix(c.path.Steps, "claim:") })
			all.each(func(ri int) {
				r := &fs.reads[ri]
				a, ok := r.held.lookup(h.key)
				if !ok || r.recheckOnly || intersects(a.openers, h.openers) || outerLock(r.held, w.held, h.key) || fs.superseded(ri, w, h.key, all) || fs.redecided(ri, w, h) ||
					fs.claimedSince(ri, w, all) || fs.perCallKey(r, w) {
					return
				}
				if (!r.loc.overlaps(w.loc) || distinctEntries(r, w)) && !fs.reachedThrough(w.base, ri) {
					return
				}
				depth := len(r.loc.Steps)
				better := !(depth < bestDepth || depth == bestDepth && (bestGap.Kind == LostUpdate || !data.has(ri)))
				if !better && unchained {
					return
				}
				var chain claimChain
				chained := false
				if !unchained {
					chain, chained = fs.claimTakenInSection(r, w, h.key)
				}
				g := fs.evaluate(ri, a, w, h, data, decisions, writesByBlock)
				if g == nil {
					return
				}
				if chained {
					if !slices.Contains(chains, chain) {
						chains = append(chains, chain)
					}
				} else {
					unchained = true
				}
				if better {
					best, bestDepth, bestGap = ri, depth, g
				}
			})
			if best >= 0 {
				if !unchained {
					bestGap.claimChains = chains
				}
				report(best, bestGap)
				continue
			}
			// A write that is not fed by the stale read, but whose own
			// re-check gives up when the entry is gone, after A decided
			// the entry exists (and would have created it otherwise).
			if !fs.mayBeDropped(w) {
				continue
			}
			for _, d := range decisions {
				r := &fs.reads[d.read]
				a, ok := r.held.lookup(h.key)
				if !ok || r.recheckOnly || !d.creates || intersects(a.openers, h.openers) || !r.loc.overlaps(w.loc) || distinctEntries(r, w) || all.has(d.read) ||
					outerLock(r.held, w.held, h.key) {
					continue
				}
				if !fs.reachable(d.block.Succs[1-d.missing], w.instr.Block()) {
					continue // only the missing side gets there
				}
				if g := fs.evaluate(d.read, a, w, h, nil, decisions, writesByBlock); g != nil && g.Kind == Dropped {
					report(d.read, g)
					break
				}
			}
		}
	}
	return gaps
}

// storedBack adds to data the reads w's value derives from through a
// pointer, when w stores to the location that pointer was read from: a
// new snapshot built from the old one (next := &state{n: cur.n + 1}) and
// published where the old one was found.
func (fs *funcState) storedBack(w *writeSite, data *bitset) {
	if w.kind != writeStore {
		return
	}
	for _, v := range w.data {
		fs.through[v].each(func(ri int) {
			if r := &fs.reads[ri]; len(r.held) > 0 && r.loc.key() == w.loc.key() {
				data.add(ri)
			}
		})
	}
}

// evaluate decides whether the pair (read ri in section a, write w in
// section h) is a harmful gap, and of which kind.
func (fs *funcState) evaluate(ri int, a heldLock, w *writeSite, h heldLock, data bitset,
	decisions []staleDecision, writesByBlock map[*ssa.BasicBlock][]int) *Gap {
	r := &fs.reads[ri]
	if ld, ok := r.instr.(*ssa.UnOp); ok && ld.Op == token.MUL && fs.e.fixedSinceBuilt(ld) {
		return nil // set when the object was built: it cannot have changed
	}
	if syncMapClaim(r.instr) || fs.e.claimHelper(r.instr) {
		// LoadAndDelete, LoadOrStore, Swap: A took the entry or put its
		// own in, in the same call (or in a helper wrapping that call);
		// whoever comes next finds that.
		return nil
	}
	if fs.ownKeyOfFanOut(r, w) {
		// One goroutine per key, each the only writer of its own entry.
		return nil
	}
	if fs.appendsToAppendOnly(r, w, h) {
		// An element of a list only ever appended to, used to build what
		// B appends to the list as it is now: nothing it relied on can
		// have changed (appendonly.go).
		return nil
	}
	// A claim: section A itself moved the state it decided on (pending to
	// running, an in-flight entry inserted), so no one else can take the
	// same decision; B may rely on it. A write in A that A's own reads
	// decide, by control, is such a move; an unconditional one (a counter
	// bumped) is not.
	if a.mode == Write {
		for _, i := range fs.inSection(fs.writesIn, a, h.key, func(i int) lockState { return fs.writes[i].held }) {
			w2 := &fs.writes[i]
			// Taking the value and leaving something else behind.
			if w2.loc.overlaps(r.loc) && w2.stored != nil && !fs.taint[w2.stored].has(ri) && fs.before(r.instr, w2.instr) {
				return nil
			}
			// Taking some elements out (the list cut or filtered in
			// place) and later putting back those it could not use,
			// appended to the list as it is then: what others added in
			// between stays, and no one else can have taken the
			// elements A took.
			if w2.loc.key() == r.loc.key() && w.loc.key() == r.loc.key() && w2.stored != nil && fs.before(r.instr, w2.instr) &&
				fs.cutFrom(w2.stored, r.loc) && fs.appendsToCurrent(w, h) {
				return nil
			}
			// The same, inside the helper (or in-place closure) that
			// handed the value over.
			if w2.swaps && w2.instr == r.instr && w2.loc.key() == r.loc.key() {
				return nil
			}
			if fs.claims(w2, ri, w) || fs.claimsInHelper(w2, r) {
				return nil
			}
		}
	}
	if slices.ContainsFunc(w.resolved, func(p Path) bool { return p.key() == r.loc.key() }) {
		// The helper looks it up again itself before deciding.
		return nil
	}
	if fs.entryRevalidated(r, w) {
		return nil
	}
	if removes(w) && fs.rollsBackOwnInsert(r, w) {
		// The call that decided also filled the map: removing from it
		// undoes that call's own insert (a create rolled back on a later
		// failure), as a failed claim is released.
		return nil
	}
	var aLocs []Path
	for _, i := range fs.inSection(fs.readsIn, a, h.key, func(i int) lockState { return fs.reads[i].held }) {
		aLocs = append(aLocs, fs.reads[i].loc)
		aLocs = append(aLocs, fs.reads[i].also...)
	}
	// A re-check reads again a location A read: the same location, not
	// something inside it (checking an entry's fields does not re-decide
	// whether the entry is there).
	rereadsA := func(p Path) bool {
		return slices.ContainsFunc(aLocs, func(q Path) bool { return p.key() == q.key() || fieldOfValue(p, q) })
	}
	// A found the entry there and skipped creating it: a give-up in B
	// drops the update only on that way to w. Asked only of give-ups.
	staleCreates := func() bool {
		for _, d := range fs.decisionsOf[ri] {
			if d.creates && fs.reachable(d.block.Succs[1-d.missing], w.instr.Block()) {
				return true
			}
		}
		return false
	}
	if fs.iteratesAgain(w, h.key, rereadsA) {
		// B's range-over-func loop goes through what A read, as it is
		// now, and acts only on what it shows: re-checked, as a range
		// loop over it would be.
		return nil
	}
	if !data.has(ri) && fs.retestedAgainstParam(ri, w, rereadsA) {
		return nil // A's test against the caller's value, taken again in B
	}
	guards := fs.inlineGuards(w, h.key, rereadsA, writesByBlock, r.loc)
	for _, g := range w.guards {
		if g.against != nil {
			// The helper reads again what A read and writes only where it
			// agrees with the version or generation the caller handed it:
			// re-validated, if that value carries the stale read. Compared
			// with anything else, it is no re-check of this read.
			if fs.taint[g.against].has(ri) && (rereadsA(g.loc) || fs.insideA(aLocs, g.loc)) {
				return nil
			}
			continue
		}
		// Finding an entry still there re-checks that it exists, not a
		// count A compared with a bound (A may have listed the entries
		// too: "more than max, so drop the first listed" drops two).
		boundOnly := g.existence && removes(w) && g.loc.key() != r.loc.key() && fs.overLimit(ri, w)
		if rereadsA(g.loc) && !boundOnly {
			guards = append(guards, g)
		} else if g.existence && !g.writeOnMissing && removes(w) && g.loc.overlaps(w.loc) && fs.insideA(aLocs, g.loc) &&
			(!fs.overLimit(ri, w) || fs.otherLockGates(w, r)) {
			// The helper looks the entry up again inside what A read
			// and removes it only if it is there: if A's map was
			// dropped or replaced since, it finds nothing or removes
			// what it found.
			return nil
		}
	}
	for _, g := range guards {
		// Removing what the re-check found is right whatever happened in
		// between.
		// A give-up counts as dropping the update only when the write
		// goes to or through the entry the re-check looked for.
		// A give-up that fails with an error the caller gets is no
		// update lost quietly: the re-check caught the stale decision.
		if !g.existence || g.writeOnMissing || g.missingCreates || g.missingFails || w.removal || !g.loc.overlaps(w.loc) || !staleCreates() {
			return nil // re-checked in B
		}
	}
	if len(guards) == 0 && (fs.snapshotRechecked(ri, w, h.key) || fs.latchRechecked(ri, w, h.key)) {
		return nil
	}
	g := &Gap{}
	if len(guards) == 0 && w.kind == writeCall && !w.collection {
		// A helper that only sets fields is how an owner goroutine
		// publishes state for readers; without a re-check to judge, stay
		// silent.
		return nil
	}
	if len(guards) == 0 && fs.recordsFailure(w, ri) {
		// Replacing one recorded failure with another leaves the object
		// failed either way.
		return nil
	}
	switch {
	case len(guards) > 0:
		if fs.recreatedBetween(r, w, h) {
			return nil
		}
		g.Kind = Dropped
	case fs.reachedThrough(w.base, ri):
		if w.removal {
			return nil // clearing a field of an entry that may be orphaned is harmless
		}
		if fs.e.writeOnceLoad(r.instr) || fs.e.keptEntryLookup(r.instr) {
			return nil // the pointer is set once and never replaced: it cannot be stale
		}
		if fs.dropsReference(w, r, h) {
			return nil
		}
		g.Kind = StaleTarget
	case (w.stored != nil && fs.taint[w.stored].has(ri) || data.has(ri)) && fs.insertsUnderFreshKey(w):
		// A new entry, under a key no one else holds: it replaces
		// nothing, so no update made in between is lost.
		return nil
	case (w.stored != nil && fs.taint[w.stored].has(ri) || data.has(ri)) && w.merges && fs.keyedFresh(w, h):
		// x = max(x, v): what was stored in between is weighed, not lost.
		return nil
	case w.stored != nil && fs.taint[w.stored].has(ri):
		g.Kind = LostUpdate
	case data.has(ri):
		g.Kind = LostUpdate
	default:
		lazy := false
		for _, d := range fs.decisionsOf[ri] {
			if !fs.reachableInIteration(d.block, w.instr.Block()) {
				// Only a later turn of the loop gets to w: the test
				// decided whether the loop went on, not what w stores.
				continue
			}
			if fs.dependsOn(w.instr.Block(), branch{d.block, d.missing}) {
				lazy = true
				if len(d.block.Succs) == 2 && fs.dependsOn(w.instr.Block(), branch{d.block, 1 - d.missing}) {
					g.OrStale = true
				}
				if miss := d.block.Succs[d.missing]; len(miss.Preds) == 1 && miss.Dominates(w.instr.Block()) {
					g.MissOnly = true
				}
			}
		}
		tested, byContent, byLimit, byOutcome := fs.decides(ri, w)
		if !lazy && !tested {
			return nil // in the taint, but not what the branch tests
		}
		if !lazy && fs.growsWhereLarge(ri, w) {
			// Added to the collection where its length was found large:
			// a stale length cannot overfill it (largeside.go).
			return nil
		}
		deletesEntry := w.kind == writeDelete || w.inner == writeDelete
		if !lazy && !byContent && removes(w) && (!byOutcome || deletesEntry && r.loc.overlaps(w.loc)) {
			// "It exists, so delete (or clear) it" stays right if it was
			// deleted or replaced since: removal is idempotent. So does
			// "it exists and closing it worked, so delete its entry": a
			// racer's close fails, or it deletes the same entry. Clearing
			// a whole field because calls failed is not that (a racer may
			// have refilled it).
			return nil
		}
		if lazy && (!byLimit || fs.onlyEmptiness(ri)) && removes(w) && fs.drains(w, h) {
			// Found nothing, then everything the collection holds now is
			// handed on (nacked, closed) before it is emptied: what
			// arrived since the stale look goes the same way, not lost.
			// (Not after a bound, which the drain may now exceed, nor a
			// flag such as closed, whose stale answer lets a second
			// shutdown run.)
			return nil
		}
		if lazy && !byLimit && (w.kind == writeClear || w.inner == writeClear) {
			// Emptying the whole collection where one entry was missing
			// is a reset, not a fill or a removal of that entry: one
			// stored in between goes with the rest, as a clear means.
			return nil
		}
		if deletesEntry && fs.storedBetween(r, w, h) {
			// A removal that undoes the function's own store of the entry
			// (registered, then unregistered when starting failed):
			// whether the entry is still that store's is a pair of
			// sections of its own, not the earlier look's.
			return nil
		}
		if lazy && fs.otherEntry(r, w) {
			// A fill of another entry than the one found missing (a new
			// session under a new random id, not the cookie's): racers
			// fill different entries, and none replaces another's.
			return nil
		}
		switch {
		case w.kind == writeCall:
			// A helper decided by a stale value is reported only when it
			// fills the very entry A found missing, or deletes.
			switch {
			case lazy && (w.inner == writeMapUpdate || w.inner == writeStore) && w.loc.key() == r.loc.key():
				if fs.replacesContainer(w.instr, r.loc) {
					return nil // a wholesale refresh, not a fill of one entry
				}
				if w.fixed != "" {
					return nil // every racer stores the same constant (a set's true)
				}
				g.Kind = LazyInit
			case w.inner == writeMapUpdate && fs.insertsIfAbsent(w, h.key) && fs.onlyEmptiness(ri):
				// "Nothing there, so fill it", filled only where entries
				// are still missing: whatever arrived in between is kept.
				return nil
			case w.inner == writeDelete || w.inner == writeClear || byLimit:
				g.Kind = Gated
			default:
				return nil
			}
		case lazy:
			if at := fs.copyRechecked(ri, w, h); at != nil {
				// Whatever it stores, the code meant to check again and
				// did not: say so, before any of the memo rules below.
				g.Kind, g.CopyRecheck = LazyInit, at
				break
			}
			if steps, ok := containerSteps(r.loc); ok && w.kind == writeStore && w.stored != nil && !fs.taint[w.stored].has(ri) &&
				w.loc.Root == r.loc.Root && w.loc.Steps == steps {
				// The entry was missing, so the whole map is replaced by a
				// new one got from elsewhere (a snapshot fetched again):
				// the decision to refresh needs no re-check, and nothing
				// of what A saw is written back.
				return nil
			}
			if w.stored != nil && plainType(w.stored.Type()) && !fs.lockedReads(fs.taint[w.stored]) && !drawn(w.stored) {
				if !fs.claimValue(w) || fs.accumulates(ri, w) {
					return nil // a memo of a plain value: both racers store the same thing
				}
				// What the caller hands in is its own claim: no rule
				// about memos below applies.
				g.Claim, g.Kind = true, LazyInit
				break
			}
			if w.stored != nil && loadedRecord(w.stored, fs.fn.Pkg) && !fs.lockedReads(fs.taint[w.stored]) && !drawn(w.stored) {
				// A record loaded by key from elsewhere: a racer's entry is
				// replaced by an equal one, and a record holds no state
				// (no map, channel, lock or function) that could be lost.
				return nil
			}
			if w.stored != nil && fs.fixedValue(w.stored) != nil {
				// A constant, or a package variable set once at init: every
				// racer stores the same value.
				return nil
			}
			if w.stored != nil && metricChild(w.stored, 0) {
				// What a metrics vector hands out for a set of labels: every
				// racer gets, and stores, the same child.
				return nil
			}
			if w.stored != nil {
				if v := fs.assigned(w.stored); fs.madeIn(v, w.held, h.key) && !fs.handedBack(w.stored) && !madeToFill(v) {
					// Recomputed under the write lock and kept private: a
					// racer's entry is replaced by an equivalent one.
					return nil
				}
			}
			g.Kind = LazyInit
		default:
			if fs.flushes(w, r, h) || fs.refreshes(ri, h) {
				return nil
			}
			g.Kind = Gated
			g.CopyRecheck = fs.copyRechecked(ri, w, h)
			g.Picked = fs.pickedListing(ri, w)
		}
	}
	return g
}

// claimValue reports whether w stores, without a call on the way, an
// argument of the function other than the entry's key, or arithmetic on
// one: what a caller asks to be recorded under the key (a desk's holder).
// Two racers that both found the entry missing then store different
// values, and both go on as if the entry were theirs. A value got from
// the key alone (a label, the key converted) is a memo: racers store
// equal values.
func (fs *funcState) claimValue(w *writeSite) bool {
	var key ssa.Value
	switch x := w.instr.(type) {
	case *ssa.MapUpdate:
		key = x.Key
	case *ssa.Call:
		// A sync.Map's Store(key, value).
		if !isSyncMapCall(x) || x.Call.StaticCallee().Name() != "Store" || len(x.Call.Args) != 3 {
			return false
		}
		key = x.Call.Args[1]
	default:
		return false
	}
	keyArgs := map[ssa.Value]bool{}
	for v := range directArguments(key) {
		keyArgs[v] = true
	}
	for v := range directArguments(w.stored) {
		if keyArgs[v] {
			continue
		}
		if p, ok := v.(*ssa.Parameter); ok && fs.fn.Signature.Recv() != nil && len(fs.fn.Params) > 0 && p == fs.fn.Params[0] {
			continue // the receiver's own state: read under the lock, not handed in
		}
		return true
	}
	return false
}

// accumulates reports whether, where the stale read ri finds the entry w
// fills, the function stores there a value derived from what it found (a
// counter's first value on a miss, the sum on a hit): the first store is
// the accumulator's start, whose race the derived store's finding names.
func (fs *funcState) accumulates(ri int, w *writeSite) bool {
	for i := range fs.writes {
		o := &fs.writes[i]
		if o.instr != w.instr && o.loc.key() == w.loc.key() && o.stored != nil && fs.taint[o.stored].has(ri) {
			return true
		}
	}
	return false
}

// directArguments yields the parameters v is computed from by
// conversions and arithmetic alone. A captured variable is not one: a
// closure's may hold what its function computed from the key.
func directArguments(v ssa.Value) func(yield func(ssa.Value) bool) {
	return func(yield func(ssa.Value) bool) {
		seen := map[ssa.Value]bool{}
		var walk func(v ssa.Value) bool
		walk = func(v ssa.Value) bool {
			if v == nil || seen[v] {
				return true
			}
			seen[v] = true
			switch x := v.(type) {
			case *ssa.Parameter:
				return yield(v)
			case *ssa.Convert:
				return walk(x.X)
			case *ssa.MakeInterface:
				return walk(x.X)
			case *ssa.ChangeType:
				return walk(x.X)
			case *ssa.BinOp:
				return walk(x.X) && walk(x.Y)
			case *ssa.UnOp:
				if x.Op == token.MUL {
					return true // a load: state, not an argument
				}
				return walk(x.X)
			case *ssa.Phi:
				for _, e := range x.Edges {
					if !walk(e) {
						return false
					}
				}
			}
			return true
		}
		walk(v)
	}
}

// madeToFill reports whether v is a channel or map made there and then:
// a racer's is not replaced by an equivalent one, since whoever took the
// first from the field waits on it or adds to it, and a close, a send or
// an entry meant for them goes to the second, or is lost with the first.
func madeToFill(v ssa.Value) bool {
	switch v.(type) {
	case *ssa.MakeChan, *ssa.MakeMap:
		return true
	}
	return false
}

// rollsBackOwnInsert reports whether removal w deletes from the map that
// the helper call which made read r also inserted into.
func (fs *funcState) rollsBackOwnInsert(r *readSite, w *writeSite) bool {
	if _, ok := r.instr.(ssa.CallInstruction); !ok {
		return false
	}
	return slices.ContainsFunc(fs.writes, func(w2 writeSite) bool {
		return w2.instr == r.instr && w2.kind == writeCall && w2.inner == writeMapUpdate && w2.loc.key() == w.loc.key()
	})
}

// drains reports whether w empties a slice or map (stores nil or a new
// empty one there) after going, in its own section, through every
// element the location holds then.
func (fs *funcState) drains(w *writeSite, h heldLock) bool {
	st, ok := w.instr.(*ssa.Store)
	if !ok || !emptyValue(st.Val) {
		return false
	}
	for _, ri := range fs.inSection(fs.readsIn, h, h.key, func(i int) lockState { return fs.reads[i].held }) {
		r := &fs.reads[ri]
		if r.loc.key() != w.loc.key() || !fs.before(r.instr, w.instr) || r.value == nil || r.value.Referrers() == nil {
			continue
		}
		ranged, indexed, counted := false, false, false
		for _, ref := range *r.value.Referrers() {
			switch x := ref.(type) {
			case *ssa.Range:
				ranged = true
			case *ssa.IndexAddr, *ssa.Index:
				indexed = true
			case *ssa.Call:
				if b, ok := x.Call.Value.(*ssa.Builtin); ok && b.Name() == "len" {
					counted = true
				}
			}
		}
		if ranged || indexed && counted {
			return true
		}
	}
	return false
}

// emptyValue reports whether v is nil or a new empty slice or map.
func emptyValue(v ssa.Value) bool {
	switch x := v.(type) {
	case *ssa.Const:
		return x.IsNil()
	case *ssa.MakeMap:
		return true
	case *ssa.MakeSlice:
		c, ok := x.Len.(*ssa.Const)
		return ok && c.Int64() == 0
	}
	return false
}

// cutFrom reports whether v, a slice stored back at loc, is the slice
// read there cut or filtered in place (q[1:]; kept := q[:0] then the
// elements kept appended), or one started afresh and filled with the
// elements kept: the others were taken out. Not when it appends to the
// slice as it was, which takes nothing out.
func (fs *funcState) cutFrom(v ssa.Value, loc Path) bool {
	seen := make(map[ssa.Value]bool)
	var cut func(v ssa.Value) bool
	cut = func(v ssa.Value) bool {
		if seen[v] {
			return true // around a loop: decided by the other edges
		}
		seen[v] = true
		switch x := v.(type) {
		case *ssa.Phi:
			for _, e := range x.Edges {
				if !cut(e) {
					return false
				}
			}
			return true
		case *ssa.Call:
			return isAppend(x) && cut(x.Call.Args[0])
		case *ssa.Slice:
			load, ok := x.X.(*ssa.UnOp)
			return ok && load.Op == token.MUL && pathOf(load.X).key() == loc.key()
		case *ssa.Const:
			return x.IsNil()
		case *ssa.MakeSlice:
			return true
		}
		return false
	}
	return cut(v)
}

// appendsToCurrent reports whether w stores at its location an append to
// the slice it reads there in its own section (h): the list as it is
// then, with what others added in between.
func (fs *funcState) appendsToCurrent(w *writeSite, h heldLock) bool {
	st, ok := w.instr.(*ssa.Store)
	if !ok {
		return false
	}
	call, ok := st.Val.(*ssa.Call)
	if !ok || !isAppend(call) {
		return false
	}
	load, ok := call.Call.Args[0].(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return false
	}
	bi, ok := fs.readIdx[load]
	return ok && fs.reads[bi].loc.key() == w.loc.key() && sameSection(fs.reads[bi].held, w.held, h.key)
}

// claimsInHelper reports whether w2 is the very helper call that gave
// read r and, in the same section, either inserted entries only where
// they were missing and handed back only what it inserted (a set of
// tokens taken for the caller; or a nil error, only where it found the
// entry missing, as for a reservation), or cut the element it handed back
// out of its slice (a pool's item checked out): the caller owns what it
// got, as after a claim.
func (fs *funcState) claimsInHelper(w2 *writeSite, r *readSite) bool {
	if w2.instr != r.instr || w2.kind != writeCall {
		return false
	}
	if w2.takes && elementOf(r.loc, w2.loc) {
		// It handed back an element of a slice it cut that element out
		// of (a pool's connection checked out): the caller holds it.
		return true
	}
	if w2.inner == writeStore && r.missing == missingOnNil && w2.loc.key() == r.loc.key() {
		// A slot: it filled the field only where it was empty, with a
		// new object it handed back, and failed where another held it
		// (a probe running, a transfer in flight).
		return slices.ContainsFunc(w2.guards, func(g guard) bool {
			return g.existence && g.writeOnMissing && g.missingCreates && g.loc.key() == r.loc.key()
		})
	}
	if w2.inner != writeMapUpdate || !r.picked && r.missing != missingOnNil {
		return false
	}
	return slices.ContainsFunc(w2.guards, func(g guard) bool {
		return g.existence && g.writeOnMissing && g.loc.overlaps(r.loc)
	})
}

// swapsOut reports whether store w replaces, in its section, a value
// read from the same location earlier in that section and handed out
// (returned, or kept in a captured variable), with something not derived
// from it (see writeSite.swaps).
func (fs *funcState) swapsOut(w *writeSite) bool {
	if w.kind != writeStore || w.stored == nil || len(w.held) == 0 {
		return false
	}
	for _, ri := range fs.readsInSectionOf(w.loc.key(), w) {
		if fs.before(fs.reads[ri].instr, w.instr) && !fs.taint[w.stored].has(ri) && handedOut(fs.reads[ri].value, 0) {
			return true
		}
	}
	return false
}

// handedOut reports whether v leaves the function as it is: returned, or
// stored in a variable a closure captured from its caller.
func handedOut(v ssa.Value, depth int) bool {
	if v == nil || depth > 3 || v.Referrers() == nil {
		return false
	}
	for _, ref := range *v.Referrers() {
		switch x := ref.(type) {
		case *ssa.Return:
			return true
		case *ssa.Store:
			if x.Val != v {
				continue
			}
			switch a := x.Addr.(type) {
			case *ssa.FreeVar:
				return true
			case *ssa.Alloc:
				// A local the function keeps it in (one a defer or a
				// closure made a variable), returned from there.
				for _, r := range *a.Referrers() {
					if ld, ok := r.(*ssa.UnOp); ok && ld.Op == token.MUL && handedOut(ld, depth+1) {
						return true
					}
				}
			}
		case *ssa.Phi:
			if handedOut(x, depth+1) {
				return true
			}
		}
	}
	return false
}

// readsInSectionOf lists the reads of location loc made in a section
// that w is in (indexed once per function).
func (fs *funcState) readsInSectionOf(loc pathKey, w *writeSite) []int {
	if fs.readsByLoc == nil {
		fs.readsByLoc = make(map[locInSection][]int)
		for ri, r := range fs.reads {
			if r.instr == nil {
				continue
			}
			for _, h := range r.held {
				for _, o := range h.openers {
					k := locInSection{r.loc.key(), o}
					fs.readsByLoc[k] = append(fs.readsByLoc[k], ri)
				}
			}
		}
	}
	var out []int
	for _, h := range w.held {
		for _, o := range h.openers {
			for _, ri := range fs.readsByLoc[locInSection{loc, o}] {
				if !slices.Contains(out, ri) {
					out = append(out, ri)
				}
			}
		}
	}
	return out
}

// locInSection is a location read in the section a lock's opener opens.
type locInSection struct {
	loc    pathKey
	opener int
}

// elementOf reports whether loc is an element of the slice at container.
func elementOf(loc, container Path) bool {
	rest, ok := strings.CutPrefix(loc.Steps, container.Steps)
	return ok && loc.Root != nil && loc.Root == container.Root && strings.HasPrefix(strings.TrimPrefix(rest, "*;"), "[")
}

// entryRevalidated reports whether, after section A found an entry (read
// r), the function took the entry's own lock, and holding it through w,
// tested the entry's state before w: the entry's lock serialises everyone
// who acts on that entry, and the test tells whether it is still the live
// one (whoever drops an entry empties or marks it under that lock first).
func (fs *funcState) entryRevalidated(r *readSite, w *writeSite) bool {
	entry := r.loc.Steps
	if !strings.HasSuffix(strings.TrimSuffix(entry, "*;"), "[];") {
		return false
	}
	ctl := fs.blockCtl[w.instr.Block().Index]
	for _, own := range w.held {
		inside, ok := strings.CutPrefix(inexactSteps(own.path.Steps), entry)
		if own.path.Root != r.loc.Root || !ok || inside == "" || strings.Contains(inside, "[") {
			continue
		}
		tested := false
		ctl.each(func(ri int) {
			r2 := &fs.reads[ri]
			h, ok := r2.held.lookup(own.key)
			if ok && intersects(h.openers, own.openers) && r2.loc.Root == r.loc.Root &&
				len(r2.loc.Steps) > len(entry) && strings.HasPrefix(r2.loc.Steps, entry) {
				tested = true
			}
		})
		if tested {
			return true
		}
	}
	return false
}

// dropsReference reports whether w gives back a reference counted in the
// entry r found (e.users--, where the package also takes them: e.users++)
// in a section that removes the entry from its map once the count is down
// to zero: the reference-counted key lock.
// The caller's own count pins the entry until this decrement, so no one
// can have removed or replaced it in between.
func (fs *funcState) dropsReference(w *writeSite, r *readSite, h heldLock) bool {
	dec, ok := w.stored.(*ssa.BinOp)
	if !ok || w.kind != writeStore || !decrement(dec) {
		return false
	}
	old, ok := dec.X.(*ssa.UnOp)
	if !ok || old.Op != token.MUL || pathOf(old.X).key() != w.loc.key() {
		return false
	}
	// Someone takes the references it gives back (e.users++ where the
	// entry is found or made); a count only ever decremented here is no
	// reference count.
	if fa, ok := old.X.(*ssa.FieldAddr); !ok || !fs.e.counted[fieldVar(fa.X.Type(), fa.Field)] {
		return false
	}
	container := strings.TrimSuffix(r.loc.Steps, "[];")
	if container == r.loc.Steps {
		return false // not a map entry
	}
	for _, i := range fs.inSection(fs.writesIn, h, h.key, func(i int) lockState { return fs.writes[i].held }) {
		d := &fs.writes[i]
		if d.kind != writeDelete || d.loc.Root != r.loc.Root || !strings.HasPrefix(d.loc.Steps, container) {
			continue
		}
		zero := false
		fs.eachDep(d.instr.Block(), func(b branch) {
			c, ok := ifCond(b.block).(*ssa.BinOp)
			if !ok || !isEmpty(c.Y, true) {
				return
			}
			fs.directReads(c, func(j int) { zero = zero || fs.reads[j].loc.key() == w.loc.key() })
		})
		if zero {
			return true
		}
	}
	return false
}

// decrement reports whether b is x - 1 (or x + -1); increment, x + 1.
func decrement(b *ssa.BinOp) bool { return step(b) == -1 }

func increment(b *ssa.BinOp) bool { return step(b) == 1 }

func step(b *ssa.BinOp) int64 {
	c, ok := b.Y.(*ssa.Const)
	if !ok || c.Value == nil || c.Value.Kind() != constant.Int {
		return 0
	}
	n, exact := constant.Int64Val(c.Value)
	switch {
	case !exact:
		return 0
	case b.Op == token.ADD:
		return n
	case b.Op == token.SUB:
		return -n
	}
	return 0
}

// refreshes reports whether section h is a refresh keyed by a value of
// the caller's: it stores that value into the location read ri read, only
// where a test found the location different from it (setsWhatDiffered),
// or stores the time there where a test against the clock found it old,
// and nothing it writes carries a value read in an earlier section or
// what it overwrites (the rest is looked up by that value or read fresh). Whatever happened in
// between, the section does what a fresh test would have it do, or
// rewrites what a racer's refresh with the same value wrote.
func (fs *funcState) refreshes(ri int, h heldLock) bool {
	r := &fs.reads[ri]
	keyed, stamped, rebuilt := false, false, false
	for _, i := range fs.inSection(fs.writesIn, h, h.key, func(i int) lockState { return fs.writes[i].held }) {
		w := &fs.writes[i]
		if slices.ContainsFunc(w.held, func(o heldLock) bool { return o.key != h.key && o.mode == Write && !o.claim }) {
			continue // another lock's state (a metric updated in passing)
		}
		if w.kind != writeStore && w.kind != writeMapUpdate || w.collection {
			return false
		}
		// Nothing stale, and nothing read-modify-written: a count of
		// switches would count a racer's switch again.
		bad := false
		fs.dataTaint(w.data).each(func(j int) {
			a, ok := fs.reads[j].held.lookup(h.key)
			bad = bad || ok && !intersects(a.openers, h.openers) || fs.reads[j].loc.overlaps(w.loc)
		})
		if bad {
			return false
		}
		if w.kind == writeStore && w.loc.key() == r.loc.key() {
			switch {
			case fs.setsWhatDiffered(w, w.stored, ri):
				keyed = true
			case fs.restamps(w, ri):
				stamped = true
			}
			continue
		}
		if _, isConst := w.stored.(*ssa.Const); !isConst {
			rebuilt = true
		}
	}
	// A stamp alone is a rate limit's: the decision it took (log now, say)
	// is acted on after the section, twice when two callers pass.
	return keyed || stamped && rebuilt
}

// onlyDiffersTests reports whether every branch on the way to w that
// tests read ri asks only whether the location differs from what w
// stores: "if sid == mine, clear it" tests more than that, and a fresh
// test might find another's value there.
func (fs *funcState) onlyDiffersTests(w *writeSite, ri int) bool {
	ok := true
	fs.eachDep(w.instr.Block(), func(d branch) {
		c := ifCond(d.block)
		if c == nil || !ok {
			return
		}
		tests := false
		fs.directReads(c, func(j int) { tests = tests || j == ri })
		if !tests {
			return
		}
		b, isBin := c.(*ssa.BinOp)
		ok = isBin && (b.Op == token.EQL || b.Op == token.NEQ) && (sameValue(b.X, w.stored) || sameValue(b.Y, w.stored))
	})
	return ok
}

// restamps reports whether w stores the clock's time where a test of read
// ri against the clock found it expired: a cache refreshed again stores a
// time as good as the racer's.
func (fs *funcState) restamps(w *writeSite, ri int) bool {
	if w.stored == nil || !usesClock(w.stored, 0) {
		return false
	}
	found := false
	fs.eachDep(w.instr.Block(), func(d branch) {
		c := ifCond(d.block)
		if c == nil || found || !usesClock(c, 0) {
			return
		}
		fs.directReads(c, func(j int) { found = found || j == ri })
	})
	return found
}

// flushes reports whether w clears the very boolean flag the stale read
// saw set ("dirty", "pending") in a section that otherwise only reads: whatever
// it does with the state it reads there fresh (a snapshot saved to disk)
// is right whatever happened in between, and doing it twice is harmless.
// Closing a channel or calling a method on the state is not such work.
func (fs *funcState) flushes(w *writeSite, r *readSite, h heldLock) bool {
	if w.kind != writeStore {
		return false
	}
	// A latch is set again harmlessly whatever was read of it or of the
	// variable holding it.
	latch := r.loc.Root == w.loc.Root && strings.HasPrefix(w.loc.Steps, r.loc.Steps) && fs.latches(w, h) &&
		!fs.actsOnDecision(w, fs.readIdx[r.instr])
	if w.loc.key() != r.loc.key() && !latch {
		return false
	}
	c, ok := w.stored.(*ssa.Const)
	differed := fs.setsWhatDiffered(w, w.stored, fs.readIdx[r.instr])
	if (!ok || !isFalse(c)) && !differed && !latch {
		return false // data, not a flag: clearing a list drops what a racer put there
	}
	for _, i := range fs.inSection(fs.writesIn, h, h.key, func(i int) lockState { return fs.writes[i].held }) {
		if fs.writes[i].loc.key() != w.loc.key() {
			return false
		}
	}
	for _, b := range fs.fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(ssa.CallInstruction)
			if !ok || !sameSection(fs.heldAt(instr), w.held, h.key) {
				continue
			}
			c := call.Common()
			if _, ok := syncLockOp(c); ok {
				continue
			}
			if bi, ok := c.Value.(*ssa.Builtin); ok && bi.Name() == "close" {
				return false
			}
			if c.IsInvoke() && fs.sharedValue(c.Value) {
				return false
			}
			if callee := c.StaticCallee(); callee != nil && callee.Signature.Recv() != nil && len(c.Args) > 0 && fs.sharedValue(c.Args[0]) {
				return false
			}
		}
	}
	return true
}

// latches reports whether w stores into a variable of its function (one a
// closure captured) the one value every store of the same location in
// the function and its closures stores: a constant or a package variable
// set only by init. Such a location only ever moves to that value, so
// storing it again after a stale check is a no-op.
//
// A parameter a closure captures points to what the caller shares with
// others, not to a variable of the function's own; it counts only when
// the lock h is itself a variable of the function: no one outside the
// call can take it, so a store there by anyone else would race with the
// reads made under it.
func (fs *funcState) latches(w *writeSite, h heldLock) bool {
	value := fs.fixedValue
	want := value(w.stored)
	root := capturedRoot(w.loc.Root)
	if want == nil || root == nil {
		return false
	}
	top := fs.fn
	for top.Parent() != nil {
		top = top.Parent()
	}
	if boxedParam(root) != nil {
		lock := capturedRoot(h.path.Root)
		if lock == nil || lock.Parent() != top || boxedParam(lock) != nil || h.path.Steps != "" && !ownFields(h.path.Steps) {
			return false
		}
	}
	same := true
	stores := 0
	var visit func(fn *ssa.Function)
	visit = func(fn *ssa.Function) {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				st, ok := instr.(*ssa.Store)
				if !ok {
					continue
				}
				p := pathOf(st.Addr)
				if capturedRoot(p.Root) != root || p.Steps != w.loc.Steps {
					continue
				}
				stores++
				if value(st.Val) != want {
					same = false
				}
			}
		}
		for _, f := range fn.AnonFuncs {
			visit(f)
		}
	}
	visit(top)
	return same && stores > 0
}

// actsOnDecision reports whether anything but the write itself happens
// on the way from a branch that tests read ri to w: a call there (a
// publish, a create) would run twice on the strength of one stale test,
// even where the write is harmless.
func (fs *funcState) actsOnDecision(w *writeSite, ri int) bool {
	wb := w.instr.Block()
	acts := false
	fs.eachDep(wb, func(d branch) {
		c := ifCond(d.block)
		if acts || c == nil {
			return
		}
		// A branch on what ri decided elsewhere (a loop's next round,
		// taken because this round's test passed) is not its test.
		tests := false
		fs.directReads(c, func(j int) { tests = tests || j == ri })
		if !tests {
			return
		}
		from := d.block.Succs[d.succ]
		for _, b := range fs.fn.Blocks {
			if !from.Dominates(b) || !b.Dominates(wb) {
				continue
			}
			for _, instr := range b.Instrs {
				call, ok := instr.(ssa.CallInstruction)
				if !ok {
					continue
				}
				if _, ok := call.Common().Value.(*ssa.Builtin); ok {
					continue
				}
				if _, ok := syncLockOp(call.Common()); ok {
					continue
				}
				acts = true
			}
		}
	})
	return acts
}

// capturedRoot maps a free variable to the local variable of the
// enclosing function it captures (through nested closures); a local
// allocation maps to itself; anything else to nil.
func capturedRoot(v ssa.Value) *ssa.Alloc {
	for depth := 0; depth < 8; depth++ {
		switch x := v.(type) {
		case *ssa.Alloc:
			return x
		case *ssa.FreeVar:
			bound := boundValue(x)
			if bound == nil {
				return nil
			}
			v = bound
		default:
			return nil
		}
	}
	return nil
}

// closureOf returns the MakeClosure that makes fn in its enclosing
// function (a function literal has one), or nil.
func closureOf(fn *ssa.Function) *ssa.MakeClosure {
	if fn.Parent() == nil {
		return nil
	}
	for _, b := range fn.Parent().Blocks {
		for _, instr := range b.Instrs {
			if mc, ok := instr.(*ssa.MakeClosure); ok && mc.Fn == fn {
				return mc
			}
		}
	}
	return nil
}

// boundValue returns what the enclosing function binds to the free
// variable fv when it makes fv's closure, or nil.
func boundValue(fv *ssa.FreeVar) ssa.Value {
	fn := fv.Parent()
	i := slices.Index(fn.FreeVars, fv)
	mc := closureOf(fn)
	if mc == nil || i < 0 || i >= len(mc.Bindings) {
		return nil
	}
	return mc.Bindings[i]
}

// setsWhatDiffered reports whether w, storing v (a constant, or a value
// that owes nothing to the location: the caller's), runs only where a
// branch found the location different from v (err != nil, then err = nil;
// off != c.offset, then c.offset = off), and every test of read ri on the
// way asks only that (onlyDiffersTests): storing v is then what a fresh
// check would do too, or a no-op.
func (fs *funcState) setsWhatDiffered(w *writeSite, v ssa.Value, ri int) bool {
	same := func(x ssa.Value) bool { return sameValue(x, v) }
	if v == nil {
		return false
	}
	fromLoc := false
	fs.taint[v].each(func(i int) {
		fromLoc = fromLoc || fs.reads[i].loc.key() == w.loc.key()
	})
	if fromLoc {
		return false // the old value stored back
	}
	found := false
	fs.eachDep(w.instr.Block(), func(d branch) {
		b, ok := ifCond(d.block).(*ssa.BinOp)
		if !ok || (b.Op != token.NEQ && b.Op != token.EQL) || !same(b.X) && !same(b.Y) {
			return
		}
		differs := 0 // the true successor, for !=
		if b.Op == token.EQL {
			differs = 1
		}
		if d.succ != differs {
			return
		}
		fs.directReads(b, func(i int) {
			if fs.reads[i].loc.key() == w.loc.key() {
				found = true
			}
		})
	})
	return found && fs.onlyDiffersTests(w, ri)
}

// sameValue reports whether x and v are one value: the same SSA value,
// equal constants, or the same getter asked twice.
func sameValue(x, v ssa.Value) bool {
	if x == v || sameGetter(x, v) || sameArgumentField(x, v) {
		return true
	}
	k, ok1 := x.(*ssa.Const)
	c, ok2 := v.(*ssa.Const)
	return ok1 && ok2 && constEqual(k, c)
}

// sameArgumentField reports whether a and b load the same field path from
// one argument (r.URL.Host read twice from a request): the caller's value,
// when the function never stores there and the argument is neither the
// receiver nor an object with a lock of its own (whose fields others may
// change).
func sameArgumentField(a, b ssa.Value) bool {
	pa, ok := sameFieldLoads(a, b)
	if !ok {
		return false
	}
	p, ok := pa.Root.(*ssa.Parameter)
	if !ok || hasOwnLock(p.Type()) {
		return false
	}
	fn := p.Parent()
	if fn.Signature.Recv() != nil && fn.Params[0] == p {
		return false
	}
	return !storesAt(fn, pa)
}

// hasOwnLock reports whether t (or what it points to) is a struct with a
// sync.Mutex or sync.RWMutex field.
func hasOwnLock(t types.Type) bool {
	st, ok := deref(t).Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for i := range st.NumFields() {
		named, ok := types.Unalias(st.Field(i).Type()).(*types.Named)
		if ok && named.Obj().Pkg() != nil && named.Obj().Pkg().Path() == "sync" &&
			(named.Obj().Name() == "Mutex" || named.Obj().Name() == "RWMutex") {
			return true
		}
	}
	return false
}

// sameGetter reports whether a and b are calls of the same method on the
// same receiver with the same arguments (stat.Size() asked twice).
func sameGetter(a, b ssa.Value) bool {
	x, ok1 := a.(*ssa.Call)
	y, ok2 := b.(*ssa.Call)
	if !ok1 || !ok2 {
		return false
	}
	cx, cy := &x.Call, &y.Call
	if cx.Method != cy.Method || cx.Value != cy.Value || !slices.Equal(cx.Args, cy.Args) {
		return false
	}
	if cx.Method != nil {
		return true
	}
	f := cx.StaticCallee()
	return f != nil && f.Signature.Recv() != nil
}

func constEqual(a, b *ssa.Const) bool {
	if a.Value == nil || b.Value == nil {
		return a.Value == nil && b.Value == nil && a.IsNil() && b.IsNil()
	}
	return a.Value.Kind() == b.Value.Kind() && constant.Compare(a.Value, token.EQL, b.Value)
}

// sharedValue reports whether v was loaded from shared state.
func (fs *funcState) sharedValue(v ssa.Value) bool {
	if load, ok := v.(*ssa.UnOp); ok && load.Op == token.MUL {
		return pathOf(load.X).isShared(fs.fn)
	}
	if fa, ok := v.(*ssa.FieldAddr); ok {
		return pathOf(fa).isShared(fs.fn)
	}
	return false
}

func isFalse(c *ssa.Const) bool {
	return c.Value != nil && c.Value.Kind() == constant.Bool && !constant.BoolVal(c.Value)
}

// removes reports whether w deletes or clears what it writes.
func removes(w *writeSite) bool {
	return w.removal || w.kind == writeDelete || w.inner == writeDelete
}

// otherLockGates reports whether w runs only where a test of state read
// under a lock r's section did not hold (another lock's: "is this relay
// in use") let it: that test, not r's count, picks what is removed.
func (fs *funcState) otherLockGates(w *writeSite, r *readSite) bool {
	found := false
	fs.eachDep(w.instr.Block(), func(d branch) {
		c := ifCond(d.block)
		if c == nil || found || iterationTest(d.block) {
			return
		}
		fs.directReads(c, func(j int) {
			r2 := &fs.reads[j]
			if len(r2.held) == 0 {
				return
			}
			for _, h := range r2.held {
				if _, shared := r.held.lookup(h.key); shared {
					return
				}
			}
			found = true
		})
	})
	return found
}

// overLimit reports whether ri decides w by comparing it with a bound
// (an eviction when full: two racers would both evict).
func (fs *funcState) overLimit(ri int, w *writeSite) bool {
	_, _, byLimit, _ := fs.decides(ri, w)
	return byLimit
}

// insideA reports whether p lies strictly inside one of the locations
// section A read.
func (fs *funcState) insideA(aLocs []Path, p Path) bool {
	return slices.ContainsFunc(aLocs, func(q Path) bool {
		return q.Root == p.Root && len(p.Steps) > len(q.Steps) && strings.HasPrefix(p.Steps, q.Steps)
	})
}

// inlineGuards finds the branches of fs that control w and test a value
// freshly read in w's section from a location section A read.
func (fs *funcState) inlineGuards(w *writeSite, k pathKey, rereadsA func(Path) bool,
	writesByBlock map[*ssa.BasicBlock][]int, staleLoc Path) []guard {
	var out []guard
	visit := func(d branch) {
		cond := ifCond(d.block)
		if cond == nil {
			return
		}
		if fs.versionFlag(cond) {
			return // versionGuards judges it
		}
		fs.testedReads(cond, d.block, func(ri int) {
			r2 := &fs.reads[ri]
			if !sameSection(r2.held, w.held, k) || !rereadsA(r2.loc) || fs.staleAddress(r2, k, w.held) {
				return
			}
			g := guard{loc: r2.loc, read: ri, branch: d}
			if subj, missing, ok := existenceTest(cond); ok && fs.taint[subj].has(ri) {
				g.existence = true
				g.writeOnMissing = d.succ == missing
				g.missingCreates = fs.sideWrites(branch{d.block, missing}, staleLoc, writesByBlock, false)
				g.missingFails = !g.writeOnMissing && fs.failsAloud(d.block.Succs[missing], w)
			}
			out = append(out, g)
		})
		// A question put to the entry as it is now (if
		// !m[k].idle() { ... }): its answer, not A's, decides.
		if ri, ok := fs.askedEntry(cond); ok {
			r2 := &fs.reads[ri]
			if sameSection(r2.held, w.held, k) && rereadsA(r2.loc) && !fs.staleAddress(r2, k, w.held) {
				out = append(out, guard{loc: r2.loc, read: ri, branch: d})
			}
		}
	}
	fs.eachSectionGate(w, k, visit)
	return out
}

// askedEntry returns, for a condition that is the result of a method
// called on a value read from shared state (through negations), that
// read.
func (fs *funcState) askedEntry(cond ssa.Value) (int, bool) {
	c, ok := withoutNegation(cond).(*ssa.Call)
	if !ok {
		return 0, false
	}
	var recv ssa.Value
	switch {
	case c.Call.IsInvoke():
		recv = c.Call.Value
	case c.Call.Signature().Recv() != nil && len(c.Call.Args) > 0:
		recv = c.Call.Args[0]
	default:
		return 0, false
	}
	instr, ok := recv.(ssa.Instruction)
	if !ok {
		return 0, false
	}
	ri, ok := fs.readIdx[instr]
	return ri, ok
}

// eachSectionGate calls f with each branch w depends on, and each retry
// test in w's section of k (eachRetryTest) gating it.
func (fs *funcState) eachSectionGate(w *writeSite, k pathKey, f func(branch)) {
	b := w.instr.Block()
	fs.eachDep(b, f)
	fs.eachRetryTest(b, func(x *ssa.BasicBlock) bool {
		return slices.ContainsFunc(fs.testedBy(x), func(ri int) bool { return sameSection(fs.reads[ri].held, w.held, k) })
	}, f)
}

// snapshotRechecked reports whether w runs only where a test in its
// section finds what read ri read, or something inside it, equal to what
// the stale value carries: a snapshot published now compared with the one
// copied (r.table == cur, r.table.version == cur.version).
func (fs *funcState) snapshotRechecked(ri int, w *writeSite, k pathKey) bool {
	at := fs.reads[ri].loc
	inside := func(v ssa.Value) bool {
		found := false
		fs.directReads(v, func(rj int) {
			r := &fs.reads[rj]
			found = found || r.loc.Root == at.Root && strings.HasPrefix(r.loc.Steps, at.Steps) && sameSection(r.held, w.held, k)
		})
		return found
	}
	copied := func(v ssa.Value) bool { return fs.through[v].has(ri) || fs.taint[v].has(ri) }
	found := false
	test := func(d branch) {
		cond, ok := ifCond(d.block).(*ssa.BinOp)
		if !ok || found || (cond.Op != token.EQL && cond.Op != token.NEQ) {
			return
		}
		agree := 0 // the successor taken where they are equal
		if cond.Op == token.NEQ {
			agree = 1
		}
		if d.succ == agree && (inside(cond.X) && copied(cond.Y) || inside(cond.Y) && copied(cond.X)) {
			found = true
		}
	}
	fs.eachSectionGate(w, k, test)
	return found
}

// eachRetryTest calls f with the side of each test, among the blocks
// that dominate b, that goes on to b where the other side only goes round
// a loop again (if s.v != seen { continue }): a compare-and-retry loop's
// test. The write it gates always happens in the end, so control
// dependence does not see the test. Only the blocks tests accepts count.
func (fs *funcState) eachRetryTest(b *ssa.BasicBlock, tests func(*ssa.BasicBlock) bool, f func(branch)) {
	rt := fs.retryTestsOf()
	for _, x := range rt.blocks {
		if x == b || !x.Dominates(b) || !tests(x) {
			continue
		}
		for i := range x.Succs {
			if !rt.reaches(branch{x, i}, b) && rt.reaches(branch{x, 1 - i}, b) {
				f(branch{x, 1 - i})
			}
		}
	}
}

// testedBy lists, once per block, the reads its branch condition tests.
func (fs *funcState) testedBy(x *ssa.BasicBlock) []int {
	rt := fs.retryTestsOf()
	if rs, ok := rt.tested[x]; ok {
		return rs
	}
	var rs []int
	fs.testedReads(ifCond(x), x, func(ri int) { rs = append(rs, ri) })
	rt.tested[x] = rs
	return rs
}

// retryTests holds the tests inside loops (blocks ending in an If with a
// successor in the loop) and, per side, what that side reaches before
// coming back round the loop (memoised).
type retryTests struct {
	blocks []*ssa.BasicBlock
	region map[branch][]bool
	tested map[*ssa.BasicBlock][]int
}

func (fs *funcState) retryTestsOf() *retryTests {
	if fs.retry != nil {
		return fs.retry
	}
	rt := &retryTests{region: make(map[branch][]bool), tested: make(map[*ssa.BasicBlock][]int)}
	scc := fs.components()
	for _, x := range fs.fn.Blocks {
		if ifCond(x) != nil && len(x.Succs) == 2 && (scc[x.Succs[0].Index] == scc[x.Index] || scc[x.Succs[1].Index] == scc[x.Index]) {
			rt.blocks = append(rt.blocks, x)
		}
	}
	fs.retry = rt
	return rt
}

// reaches reports whether b can be reached from br's successor without
// passing a block that dominates br's block (a loop's head, for a block in
// the loop).
func (rt *retryTests) reaches(br branch, b *ssa.BasicBlock) bool {
	from := br.block.Succs[br.succ]
	if from == b {
		return true
	}
	region, ok := rt.region[br]
	if !ok {
		x := br.block
		region = make([]bool, len(x.Parent().Blocks))
		if !from.Dominates(x) {
			region[from.Index] = true
			work := []*ssa.BasicBlock{from}
			for len(work) > 0 {
				c := work[len(work)-1]
				work = work[:len(work)-1]
				for _, s := range c.Succs {
					if !region[s.Index] && !s.Dominates(x) {
						region[s.Index] = true
						work = append(work, s)
					}
				}
			}
		}
		rt.region[br] = region
	}
	return region[b.Index]
}

// staleDecisions lists the existence tests on values read under a lock.
func (fs *funcState) staleDecisions(writesByBlock map[*ssa.BasicBlock][]int) []staleDecision {
	var out []staleDecision
	fs.eachExistenceTest(true, func(b *ssa.BasicBlock, cond, subj ssa.Value, missing int, ri int) {
		out = append(out, staleDecision{read: ri, block: b, missing: missing,
			creates:   fs.sideWrites(branch{b, missing}, fs.reads[ri].loc, writesByBlock, true),
			emptiness: lenOf(subj) != nil || testsLen(cond)})
	})
	return out
}

// eachExistenceTest calls f for every read made under a lock that a
// block's branch tests for existence (a comma-ok lookup, a nil or
// emptiness compare, a helper's found answer and, with verdicts, a
// helper's error verdict), with the side that means missing.
func (fs *funcState) eachExistenceTest(verdicts bool, f func(b *ssa.BasicBlock, cond, subj ssa.Value, missing int, ri int)) {
	for _, b := range fs.fn.Blocks {
		cond := ifCond(b)
		if cond == nil {
			continue
		}
		subj, missing, ok := existenceTest(cond)
		if !ok {
			subj, missing, ok = fs.foundCall(cond)
		}
		if !ok && verdicts {
			subj, missing, ok = fs.verdictCall(cond)
		}
		if !ok {
			continue
		}
		fs.directReads(subj, func(ri int) {
			if len(fs.reads[ri].held) > 0 {
				f(b, cond, subj, missing, ri)
			}
		})
	}
}

// eachDep visits the branches b is control dependent on, transitively.
func (fs *funcState) eachDep(b *ssa.BasicBlock, f func(branch)) {
	seen := make(map[*ssa.BasicBlock]bool)
	work := []*ssa.BasicBlock{b}
	for len(work) > 0 {
		x := work[len(work)-1]
		work = work[:len(work)-1]
		for _, d := range fs.cd.deps[x.Index] {
			f(d)
			if !seen[d.block] {
				seen[d.block] = true
				work = append(work, d.block)
			}
		}
	}
}

func (fs *funcState) dependsOn(b *ssa.BasicBlock, want branch) bool {
	found := false
	fs.eachDep(b, func(d branch) {
		if d == want {
			found = true
		}
	})
	return found
}

// sideWrites reports whether the code that branch br decides (the blocks
// control dependent on it, transitively: up to where both sides join)
// writes a location overlapping loc. Code after the join runs either way
// and does not count. With thisTurn, neither does code that br decides
// only through a loop it goes round (continue): the next turn looks again.
func (fs *funcState) sideWrites(br branch, loc Path, writesByBlock map[*ssa.BasicBlock][]int, thisTurn bool) bool {
	start := br.block.Succs[br.succ]
	if thisTurn && start.Dominates(br.block) {
		return false // straight back to the loop's head
	}
	seen := map[*ssa.BasicBlock]bool{}
	work := slices.Clone(fs.cd.dependents[br])
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[b] {
			continue
		}
		seen[b] = true
		if thisTurn && b != start && !fs.reachableInIteration(start, b) {
			continue
		}
		for _, wi := range writesByBlock[b] {
			if w := &fs.writes[wi]; w.loc.overlaps(loc) && !fs.onlyWhereThere(w, loc) {
				return true
			}
		}
		for i := range b.Succs {
			if len(b.Succs) > 1 {
				work = append(work, fs.cd.dependents[branch{b, i}]...)
			}
		}
	}
	return false
}

// onlyWhereThere reports whether w runs only where a test in its own
// section found loc there (a comma-ok or nil test of it, the write on the
// present side), in this function or inside the helper w calls: it
// rewrites an entry that exists, and cannot create a missing one.
func (fs *funcState) onlyWhereThere(w *writeSite, loc Path) bool {
	if slices.ContainsFunc(w.guards, func(g guard) bool {
		return g.existence && !g.writeOnMissing && g.loc.key() == loc.key()
	}) {
		return true
	}
	found := false
	fs.eachDep(w.instr.Block(), func(d branch) {
		cond := ifCond(d.block)
		if found || cond == nil {
			return
		}
		subj, missing, ok := existenceTest(cond)
		if !ok || d.succ == missing {
			return
		}
		fs.directReads(subj, func(ri int) {
			r := &fs.reads[ri]
			for _, h := range r.held {
				if r.loc.key() == loc.key() && sameSection(r.held, w.held, h.key) {
					found = true
				}
			}
		})
	})
	return found
}

func (fs *funcState) reachable(from, to *ssa.BasicBlock) bool {
	k := [2]*ssa.BasicBlock{from, to}
	if v, ok := fs.reachMemo[k]; ok {
		return v
	}
	if fs.reachMemo == nil {
		fs.reachMemo = make(map[[2]*ssa.BasicBlock]bool)
	}
	found := false
	fs.walkFrom(from, func(b *ssa.BasicBlock) bool {
		if b == to {
			found = true
			return false
		}
		return true
	})
	fs.reachMemo[k] = found
	return found
}

// reachableInIteration reports whether to, a block in a loop with from,
// can be reached from from without passing a block that dominates from:
// without going round the loop, back to its head. For a block outside
// from's loops it answers true, leaving the question to the caller's
// control dependence.
func (fs *funcState) reachableInIteration(from, to *ssa.BasicBlock) bool {
	if scc := fs.components(); scc[from.Index] != scc[to.Index] {
		return true // not in one loop: the usual control dependence decides
	}
	seen := make([]bool, len(fs.fn.Blocks))
	work := []*ssa.BasicBlock{from}
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		for _, s := range b.Succs {
			if s.Dominates(from) {
				continue
			}
			if s == to {
				return true
			}
			if !seen[s.Index] {
				seen[s.Index] = true
				work = append(work, s)
			}
		}
	}
	return false
}

// components numbers the strongly connected components of the function's
// blocks (Kosaraju): two blocks share a number when each reaches the other.
func (fs *funcState) components() []int {
	if fs.scc != nil {
		return fs.scc
	}
	blocks := fs.fn.Blocks
	n := len(blocks)
	order := make([]*ssa.BasicBlock, 0, n)
	seen := make([]bool, n)
	type frame struct {
		b    *ssa.BasicBlock
		next int
	}
	for _, root := range blocks {
		if seen[root.Index] {
			continue
		}
		seen[root.Index] = true
		stack := []frame{{root, 0}}
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			if top.next < len(top.b.Succs) {
				s := top.b.Succs[top.next]
				top.next++
				if !seen[s.Index] {
					seen[s.Index] = true
					stack = append(stack, frame{s, 0})
				}
				continue
			}
			order = append(order, top.b)
			stack = stack[:len(stack)-1]
		}
	}
	scc := make([]int, n)
	for i := range scc {
		scc[i] = -1
	}
	c := 0
	for i := len(order) - 1; i >= 0; i-- {
		if scc[order[i].Index] >= 0 {
			continue
		}
		work := []*ssa.BasicBlock{order[i]}
		scc[order[i].Index] = c
		for len(work) > 0 {
			b := work[len(work)-1]
			work = work[:len(work)-1]
			for _, p := range b.Preds {
				if scc[p.Index] < 0 {
					scc[p.Index] = c
					work = append(work, p)
				}
			}
		}
		c++
	}
	fs.scc = scc
	return scc
}

func (fs *funcState) walkFrom(start *ssa.BasicBlock, visit func(*ssa.BasicBlock) bool) {
	seen := make([]bool, len(fs.fn.Blocks))
	work := []*ssa.BasicBlock{start}
	seen[start.Index] = true
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		if !visit(b) {
			return
		}
		for _, s := range b.Succs {
			if !seen[s.Index] {
				seen[s.Index] = true
				work = append(work, s)
			}
		}
	}
}

// existenceTest recognises a nil comparison or a comma-ok test and says
// which successor of the If is taken when the entry is missing.
func existenceTest(cond ssa.Value) (subject ssa.Value, missing int, ok bool) {
	switch c := cond.(type) {
	case *ssa.BinOp:
		if c.Op == token.GTR && isEmpty(c.Y, true) && lenOf(c.X) != nil {
			return lenOf(c.X), 1, true // len(x) > 0
		}
		if c.Op != token.EQL && c.Op != token.NEQ {
			return nil, 0, false
		}
		empty := func(k, other ssa.Value) bool {
			return isNil(k) || isEmpty(k, lenOf(other) != nil)
		}
		switch {
		case empty(c.Y, c.X):
			subject = c.X
		case empty(c.X, c.Y):
			subject = c.Y
		default:
			return nil, 0, false
		}
		if isError(subject.Type()) {
			return nil, 0, false // err != nil is an outcome, not an entry
		}
		if n := lenOf(subject); n != nil {
			subject = n // len(x) == 0: x is missing when empty
		}
		if c.Op == token.EQL {
			return subject, 0, true
		}
		return subject, 1, true
	case *ssa.Extract:
		if c.Index != 1 {
			return nil, 0, false
		}
		switch t := c.Tuple.(type) {
		case *ssa.Call:
			// v, ok := lookup(k): a helper with a comma-ok result.
			if res := t.Call.Signature().Results(); res.Len() == 2 && types.Identical(res.At(1).Type(), types.Typ[types.Bool]) {
				return t, 1, true
			}
		case *ssa.Lookup:
			if t.CommaOk {
				return t, 1, true
			}
		case *ssa.TypeAssert:
			if t.CommaOk {
				return t, 1, true
			}
		}
	case *ssa.UnOp:
		if c.Op == token.NOT {
			if s, m, ok := existenceTest(c.X); ok {
				return s, 1 - m, true
			}
		}
	}
	return nil, 0, false
}

// isEmpty reports whether v is the constant "" (or 0, when compared with
// a length).
func isEmpty(v ssa.Value, length bool) bool {
	c, ok := v.(*ssa.Const)
	if !ok || c.Value == nil {
		return false
	}
	switch c.Value.Kind() {
	case constant.String:
		return constant.StringVal(c.Value) == ""
	case constant.Int:
		return length && constant.Sign(c.Value) == 0
	}
	return false
}

// onlyEmptiness reports whether every existence test on read ri asks
// whether a collection is empty, and there is one.
func (fs *funcState) onlyEmptiness(ri int) bool {
	ds := fs.decisionsOf[ri]
	return len(ds) > 0 && !slices.ContainsFunc(ds, func(d staleDecision) bool { return !d.emptiness })
}

// testsLen reports whether cond compares a length (len(x) > 0, !(len(x)
// == 0)).
func testsLen(cond ssa.Value) bool {
	switch c := cond.(type) {
	case *ssa.BinOp:
		return lenOf(c.X) != nil || lenOf(c.Y) != nil
	case *ssa.UnOp:
		return c.Op == token.NOT && testsLen(c.X)
	}
	return false
}

// lenOf returns x for v = len(x), else nil.
func lenOf(v ssa.Value) ssa.Value {
	if c, ok := v.(*ssa.Call); ok {
		if b, ok := c.Call.Value.(*ssa.Builtin); ok && b.Name() == "len" {
			return c.Call.Args[0]
		}
	}
	return nil
}

func isNil(v ssa.Value) bool {
	c, ok := v.(*ssa.Const)
	if !ok || c.Value != nil {
		return false
	}
	switch c.Type().Underlying().(type) {
	case *types.Pointer, *types.Map, *types.Slice, *types.Chan, *types.Signature, *types.Interface:
		return true
	}
	return false
}

// describe fills in positions for a gap between read ri (section a) and
// write w (section b).
func (fs *funcState) describe(g *Gap, ri int, w *writeSite, a, b heldLock) *Gap {
	r := &fs.reads[ri]
	g.Fn = fs.fn
	g.Lock = b.path
	g.Removal = removes(w)
	_, isCall := r.instr.(ssa.CallInstruction)
	g.FoundBy = isCall && (r.found || r.missing != 0)
	g.countNonzero = g.Kind == Gated && fs.onNonzeroSide(ri, w)
	g.atLeast = g.Kind == Gated && fs.onSide(ri, w, atLeastSide)
	g.absent = g.Kind == LazyInit && !g.Removal || g.Kind == Gated && fs.onSide(ri, w, mismatchSide)
	g.present = !g.absent && fs.foundThere(ri, w)
	g.atomicInA = fs.loadsAtomicIn(a)
	g.AMode, g.BMode = a.mode, b.mode
	g.Copied = g.Kind == LostUpdate && !fs.dataTaint(w.data).has(ri)
	first := func(openers []int) (token.Pos, ssa.Instruction, bool) {
		var best ssa.Instruction
		helper := false
		for _, o := range openers {
			acq := fs.flow.acquires[o]
			if best == nil || acq.instr.Pos() < best.Pos() {
				best, helper = acq.instr, acq.helper
			}
		}
		return best.Pos(), best, helper
	}
	var aInst ssa.Instruction
	g.AOpen, aInst, g.AHelper = first(a.openers)
	g.BOpen, g.BOpenInst, g.BHelper = first(b.openers)
	// A closure called in place is a block of this function to whoever
	// reads it: name its Lock, as for one written inline.
	if pos, ok := fs.lockInPlace(aInst, a.path); g.AHelper && ok {
		g.AOpen, g.AHelper, g.AInPlace = pos, false, true
	}
	if pos, ok := fs.lockInPlace(g.BOpenInst, b.path); g.BHelper && ok {
		g.BOpen, g.BHelper, g.BInPlace = pos, false, true
	} else if g.BHelper && !g.BOpen.IsValid() {
		// A range over a function value: the call of the iterator has
		// no place in the source. Name the helper the loop's body calls.
		g.BOpen = fs.helperInBody(g.BOpenInst, b.path)
	}
	if g.BHelper {
		for _, o := range b.openers {
			if acq := fs.flow.acquires[o]; acq.instr == g.BOpenInst {
				g.BLockParam, g.BLockSteps = acq.rel.param, renderSteps(acq.rel.steps)
				if gl := acq.rel.global; gl != nil {
					// Named as the caller's source would: the variable,
					// qualified when another package declares it.
					g.BLockParam = -1
					name := gl.Name()
					if gl.Pkg != fs.fn.Pkg {
						name = gl.Pkg.Pkg.Name() + "." + name
					}
					g.BLockSteps = name + g.BLockSteps
				}
			}
		}
	}
	// The unlock on the reported path: one the read reaches and that
	// every way to the write passes (not an early return's), else any the
	// read reaches.
	var reached []token.Pos
	for _, o := range a.openers {
		for _, rel := range fs.releases[o] {
			if !fs.before(r.instr, rel) {
				continue
			}
			reached = append(reached, rel.Pos())
			// Dominance, not reachability: cheap, and enough to tell the
			// unlock before the write from an early return's.
			if rb, wb := rel.Block(), w.instr.Block(); rb != wb && rb.Dominates(wb) || rb == wb && fs.before(rel, w.instr) {
				g.AReleases = append(g.AReleases, rel.Pos())
			}
		}
	}
	if len(g.AReleases) == 0 {
		g.AReleases = reached
	}
	slices.Sort(g.AReleases)
	g.Read = r.pos
	g.Write = w.pos
	g.ReadLoc = r.loc
	for _, d := range fs.decisionsOf[ri] {
		g.Emptiness = g.Emptiness || d.emptiness
	}
	if !g.Read.IsValid() {
		g.Read = r.instr.Pos()
	}
	if !g.Write.IsValid() && w.instr == g.BOpenInst {
		g.Write = g.BOpen
	}
	// Anything still without a place (a range over a function whose
	// body reads or writes through calls): the loop's.
	for _, at := range []*token.Pos{&g.Read, &g.Write, &g.AOpen, &g.BOpen} {
		if !at.IsValid() {
			*at = fs.loopOf(r.instr, w.instr)
		}
	}
	return g
}

// helperInBody returns, for the call of an iterator whose range loop's
// body runs in place, the position of the call in the body that takes
// lock: a Lock of it, or a helper whose summary does. NoPos if none.
func (fs *funcState) helperInBody(instr ssa.Instruction, lock Path) token.Pos {
	call, ok := instr.(ssa.CallInstruction)
	if !ok {
		return token.NoPos
	}
	body, cs := calleeOf(fs.e.pkg, call)
	if body == nil || body.Synthetic != "range-over-func yield" {
		return token.NoPos
	}
	takes := func(rp relPath, in *callSite) bool {
		p, ok := in.resolveLock(rp)
		if !ok {
			return false
		}
		if rp, ok = toRel(body, p); !ok {
			return false
		}
		p, ok = cs.resolveLock(rp)
		return ok && p.key() == lock.key()
	}
	for _, b := range body.Blocks {
		for _, instr := range b.Instrs {
			c, ok := instr.(ssa.CallInstruction)
			if !ok || !c.Pos().IsValid() {
				continue
			}
			if op, ok := syncLockOp(c.Common()); ok {
				if rp, ok := toRel(body, op.path); op.kind == opAcquire && ok {
					if p, ok := cs.resolveLock(rp); ok && p.key() == lock.key() {
						return c.Pos()
					}
				}
				continue
			}
			callee, inner := calleeOf(fs.e.pkg, c)
			if callee == nil {
				continue
			}
			sum := fs.e.summaries[callee]
			if sum == nil {
				continue
			}
			for _, l := range sum.acquires {
				if takes(l.path, inner) {
					return c.Pos()
				}
			}
		}
	}
	return token.NoPos
}

// loopOf returns the position of the range-over-func loop whose iterator
// call is one of instrs: go/ssa gives that call no position of its own.
func (fs *funcState) loopOf(instrs ...ssa.Instruction) token.Pos {
	for _, instr := range instrs {
		if call, ok := instr.(ssa.CallInstruction); ok {
			if body, _ := yieldBody(call); body != nil && body.Pos().IsValid() {
				return body.Pos()
			}
		}
	}
	return token.NoPos
}

// directReads calls f for the reads a condition tests by value: operands
// of comparisons and boolean operators, looked through conversions and
// comma-ok extraction, but not through loads. A loop over an entry's
// fields tests those fields, not the entry.
func (fs *funcState) directReads(v ssa.Value, f func(ri int)) {
	if rs, ok := fs.direct[v]; ok {
		for _, r := range rs {
			f(r)
		}
		return
	}
	var rs []int
	fs.directReadsOf(v, false, func(r int) { rs = append(rs, r) })
	if fs.direct == nil {
		fs.direct = make(map[ssa.Value][]int)
	}
	fs.direct[v] = rs
	for _, r := range rs {
		f(r)
	}
}

// directReadsOf finds them; with copies, also through the field of a
// local struct a read was copied into, where that copy reaches v.
func (fs *funcState) directReadsOf(v ssa.Value, copies bool, f func(ri int)) {
	var walk func(v ssa.Value, depth int)
	var phis map[*ssa.Phi]bool
	walk = func(v ssa.Value, depth int) {
		if depth > 8 || v == nil {
			return
		}
		if phi, ok := v.(*ssa.Phi); ok {
			if phis[phi] {
				return
			}
			if phis == nil {
				phis = make(map[*ssa.Phi]bool)
			}
			phis[phi] = true
			// A flag or a sentinel a search sets (found = true; break,
			// idx = i): none of its values comes from shared state, so
			// testing it tests what chose between them.
			if fs.flagPhi(phi) {
				for _, c := range fs.phiGateBlocks(phi) {
					if fs.inSectionWith(c, phi.Block()) {
						walk(ifCond(c), depth+1)
					}
				}
				return
			}
			// A condition joined by && or || (ok && p.expiry <= now) is a
			// boolean phi over its operands.
			if isBool(phi.Type()) {
				for _, e := range phi.Edges {
					walk(e, depth+1)
				}
				return
			}
		}
		if ld, ok := v.(*ssa.UnOp); ok && ld.Op == token.MUL {
			if fv, ok := ld.X.(*ssa.FreeVar); ok {
				if assigned := reachingFree(fs, ld, fv); assigned != nil {
					// A captured variable this closure just assigned:
					// the test is of what it assigned.
					walk(assigned, depth+1)
					return
				}
			}
		}
		if instr, ok := v.(ssa.Instruction); ok {
			if ri, ok := fs.readIdx[instr]; ok && fs.reads[ri].value == v {
				f(ri)
				return
			}
		}
		switch x := v.(type) {
		case *ssa.BinOp:
			walk(x.X, depth+1)
			walk(x.Y, depth+1)
		case *ssa.UnOp:
			if x.Op != token.MUL {
				walk(x.X, depth+1)
			} else if a := fs.localRoot(x.X); a != nil {
				// A variable a closure called in place assigned: what
				// the closure read.
				if vals, ok := fs.reachingOf(x, a); ok && len(vals) == 1 {
					if c, ok := vals[0].(*ssa.Call); ok && inPlace(fs.fn, c) {
						walk(c, depth+1)
					} else if _, field := x.X.(*ssa.FieldAddr); copies && field {
						walk(vals[0], depth+1)
					}
				}
			}
		case *ssa.Extract:
			walk(x.Tuple, depth+1)
		case *ssa.ChangeType:
			walk(x.X, depth+1)
		case *ssa.Convert:
			walk(x.X, depth+1)
		case *ssa.MakeInterface:
			walk(x.X, depth+1)
		case *ssa.TypeAssert:
			walk(x.X, depth+1)
		case *ssa.Field:
			walk(x.X, depth+1)
		case *ssa.Call:
			if b, ok := x.Call.Value.(*ssa.Builtin); ok && (b.Name() == "len" || b.Name() == "cap") {
				walk(x.Call.Args[0], depth+1)
			}
			if pureQuery(x) || stdIterator(x) {
				// slices.Index(s.items, it) < 0 tests s.items; so does
				// what a loop over slices.Values(s.items) found.
				for _, a := range x.Call.Args {
					walk(a, depth+1)
				}
			}
			if body, _ := yieldBody(x); body != nil && inPlace(fs.fn, x) {
				// What a range-over-func loop's body found: a test of
				// what it went through.
				walk(x.Call.Value, depth+1)
			}
		}
	}
	walk(v, 0)
}

// pureQuery reports whether call asks a standard function that only reads
// its arguments about them (slices.Index, bytes.Equal, strings.HasPrefix):
// testing its result tests the arguments.
func pureQuery(call *ssa.Call) bool {
	callee := call.Call.StaticCallee()
	if callee == nil || callee.Object() == nil || callee.Object().Pkg() == nil || callee.Signature.Recv() != nil {
		return false
	}
	switch callee.Object().Pkg().Path() {
	case "slices", "maps", "bytes", "strings":
	default:
		return false
	}
	res := callee.Signature.Results()
	return res.Len() == 1 && isBasic(res.At(0).Type())
}

// iteratesAgain reports whether w is made by the body of a range-over-func
// loop over a std iterator of something read afresh in w's section (k's)
// at a location rereads accepts.
func (fs *funcState) iteratesAgain(w *writeSite, k pathKey, rereads func(Path) bool) bool {
	call, ok := w.instr.(*ssa.Call)
	if !ok || !inPlace(fs.fn, call) {
		return false
	}
	if body, _ := yieldBody(call); body == nil {
		return false
	}
	seq, ok := call.Call.Value.(*ssa.Call)
	if !ok || !stdIterator(seq) {
		return false
	}
	again := false
	for _, a := range seq.Call.Args {
		fs.directReads(a, func(ri int) {
			r2 := &fs.reads[ri]
			again = again || sameSection(r2.held, w.held, k) && rereads(r2.loc)
		})
	}
	return again
}

// stdIterator reports whether call makes an iterator over its arguments
// with the maps or slices package (maps.Keys(m), slices.Values(s)).
func stdIterator(call *ssa.Call) bool {
	callee := call.Call.StaticCallee()
	if callee == nil || callee.Object() == nil || callee.Object().Pkg() == nil || callee.Signature.Recv() != nil {
		return false
	}
	if p := callee.Object().Pkg().Path(); p != "maps" && p != "slices" {
		return false
	}
	res := callee.Signature.Results()
	if res.Len() != 1 {
		return false
	}
	named, ok := types.Unalias(res.At(0).Type()).(*types.Named)
	return ok && named.Obj().Pkg() != nil && named.Obj().Pkg().Path() == "iter"
}

func isBasic(t types.Type) bool {
	_, ok := t.Underlying().(*types.Basic)
	return ok
}

// staleAddress reports whether read r reaches its location through a value
// read in another section of lock k: then it reads the old object again,
// not the current state.
func (fs *funcState) staleAddress(r *readSite, k pathKey, cur lockState) bool {
	var addr ssa.Value
	switch x := r.instr.(type) {
	case *ssa.UnOp:
		addr = x.X
	case *ssa.Lookup:
		addr = x.X
	default:
		return false
	}
	stale := false
	fs.taint[addr].each(func(ri int) {
		if h, ok := fs.reads[ri].held.lookup(k); ok {
			if c, ok := cur.lookup(k); !ok || !intersects(h.openers, c.openers) {
				stale = true
			}
		}
	})
	return stale
}

// decides reports whether read ri is what some branch controlling w
// tests; whether some such branch tests more than its existence; and
// whether one compares it against a bound (a limit passed, a threshold
// reached).
func (fs *funcState) decides(ri int, w *writeSite) (tested, byContent, byLimit, byOutcome bool) {
	// Leaving a loop over the listing counts as a bound only where the
	// body also tested what the listing held ("none of them matched, so
	// add"): that search is what the stale listing decided.
	leftLoop, bodyTested := false, false
	fs.eachDep(w.instr.Block(), func(d branch) {
		c := ifCond(d.block)
		if c == nil || !fs.reachableInIteration(d.block, w.instr.Block()) {
			// Only a later turn of the loop gets to w: a test there
			// decided whether the loop went on, not what w does.
			return
		}
		iterates := iterationTest(d.block)
		if !iterates && !bodyTested && !callFailed(c) && fs.testsListed(c, ri) {
			bodyTested = true
		}
		test := func(r int) {
			if r != ri || iterates && fs.reads[ri].orderOnly {
				// Going through a listing that every element is in,
				// whatever the stale read said about their order, is
				// going through all of them.
				return
			}
			tested = true
			if iterates && removes(w) && (d.succ == 1 || !fs.picked(ri)) {
				// Removing each one a listing saw is by existence, like
				// "it is there, so delete it"; not so when the listing
				// kept only those a test let through. Leaving the loop
				// says only that every element was seen: what the body
				// found in them ("none of them matched", "every call on
				// them worked") is decided by the body's own branches.
				return
			}
			if _, _, ok := existenceTest(c); ok || fs.foundTest(c, ri) {
				// by existence
			} else if callFailed(c) {
				byOutcome = true
			} else {
				byContent = true
			}
			afterLoop := iterates && fs.components()[d.block.Index] != fs.components()[w.instr.Block().Index]
			switch {
			case afterLoop:
				// Leaving a range loop compares an index with the
				// length, which by itself bounds nothing: it says every
				// element was seen.
				leftLoop = leftLoop || fs.comparesBound(c, ri)
			case fs.comparesBound(c, ri):
				byLimit = true
			}
		}
		direct := false
		fs.directReads(c, func(r int) {
			direct = direct || r == ri
			test(r)
		})
		if !direct && !iterates && fs.testsCopy(c, ri, 0) {
			test(ri)
		}
		if !direct && fs.walksPicked(d.block, c, ri, w) {
			test(ri)
		}
	})
	byLimit = byLimit || leftLoop && bodyTested
	return tested, byContent, byLimit, byOutcome
}

// testsListed reports whether c tests what read ri handed over: ri
// itself, or a read of something reached through its value (a field of
// an element of the listing).
func (fs *funcState) testsListed(c ssa.Value, ri int) bool {
	t := fs.taint[c]
	if t.has(ri) {
		return true
	}
	found := false
	t.each(func(r int) {
		if ld, ok := fs.reads[r].instr.(*ssa.UnOp); ok && !found {
			found = fs.reachedThrough(ld.X, ri)
		}
	})
	return found
}

// walksPicked reports whether b, testing c, is the head of a loop that
// goes through a listing built in this function of the entries a test
// of their state (read ri) let through, with w in the loop: w acts on
// that verdict. (A helper's listing is its read's own, picked.)
func (fs *funcState) walksPicked(b *ssa.BasicBlock, c ssa.Value, ri int, w *writeSite) bool {
	if !iterationTest(b) {
		return false
	}
	switch fs.reads[ri].loc.Root.(type) {
	case *ssa.Parameter, *ssa.FreeVar, *ssa.Global:
	default:
		return false // not state others hold: a slice a call handed this function
	}
	return w.kind != writeCall && fs.components()[b.Index] == fs.components()[w.instr.Block().Index] &&
		fs.taint[c].has(ri) && fs.picked(ri) && !fs.readAgainBefore(ri, w)
}

// readAgainBefore reports whether w's section reads, before w, the
// location read ri read: a loop that tests each entry again (through the
// same helper, say) before acting on it.
func (fs *funcState) readAgainBefore(ri int, w *writeSite) bool {
	for _, i := range fs.readsInSectionOf(fs.reads[ri].loc.key(), w) {
		if i != ri && fs.before(fs.reads[i].instr, w.instr) {
			return true
		}
	}
	return false
}

// pickedListing reports whether w runs in a loop walksPicked accepts.
func (fs *funcState) pickedListing(ri int, w *writeSite) bool {
	found := false
	fs.eachDep(w.instr.Block(), func(d branch) {
		if c := ifCond(d.block); c != nil && !found {
			found = fs.walksPicked(d.block, c, ri, w)
		}
	})
	return found
}

// iterationTest reports whether b is the head of a range loop over a
// slice, array, map or string: its branch asks whether there is another
// element (its true side runs the body).
func iterationTest(b *ssa.BasicBlock) bool {
	return b.Comment == "rangeindex.loop" || b.Comment == "rangeiter.loop"
}

// picked reports whether read ri is collected (appended, stored into a
// slice element or a map) only where a branch on guarded state let it
// through, in this function or in the helper it stands for: a listing of
// the entries that passed a test, which acting on later relies on.
func (fs *funcState) picked(ri int) bool {
	if fs.reads[ri].picked {
		return true
	}
	if fs.pickedReads == nil {
		fs.pickedReads = new(bitset)
		guarded := fs.guardedBlocks()
		for _, b := range fs.fn.Blocks {
			for _, instr := range b.Instrs {
				var put bitset
				switch x := instr.(type) {
				case *ssa.Call:
					if isAppend(x) {
						put = fs.taint[x]
					}
				case *ssa.MapUpdate:
					put = append(put, fs.taint[x.Key]...)
					put.unionWith(fs.taint[x.Value])
				case *ssa.Store:
					if _, ok := x.Addr.(*ssa.IndexAddr); ok {
						put = fs.taint[x.Val]
					}
				}
				if put.empty() || !guarded[b.Index] {
					continue
				}
				fs.pickedReads.unionWith(put)
			}
		}
	}
	return fs.pickedReads.has(ri)
}

// keyTest reports whether the only guarded state cond tests is the keys
// a range over a map produced (strings.HasPrefix(k, topic), k.Matches(q)).
func (fs *funcState) keyTest(cond ssa.Value) bool {
	locked := func(v ssa.Value) bool {
		found := false
		fs.taint[v].each(func(r int) { found = found || len(fs.reads[r].held) > 0 })
		return found
	}
	sawKey := false
	seen := make(map[ssa.Value]bool)
	var clean func(v ssa.Value, depth int) bool
	clean = func(v ssa.Value, depth int) bool {
		if v == nil || !locked(v) || seen[v] {
			return true
		}
		seen[v] = true
		if depth > 8 {
			return false
		}
		switch x := v.(type) {
		case *ssa.Extract:
			if n, ok := x.Tuple.(*ssa.Next); ok && x.Index == 1 && !n.IsString {
				sawKey = true
				return true
			}
		case *ssa.BinOp:
			return clean(x.X, depth+1) && clean(x.Y, depth+1)
		case *ssa.UnOp:
			return x.Op != token.MUL && clean(x.X, depth+1)
		case *ssa.Field:
			return clean(x.X, depth+1)
		case *ssa.ChangeType:
			return clean(x.X, depth+1)
		case *ssa.Convert:
			return clean(x.X, depth+1)
		case *ssa.Call:
			if _, isRead := fs.readIdx[x]; isRead || x.Call.IsInvoke() && !clean(x.Call.Value, depth+1) {
				return false
			}
			for _, a := range x.Call.Args {
				if !clean(a, depth+1) {
					return false
				}
			}
			return true
		}
		return false
	}
	return clean(cond, 0) && sawKey
}

// guardedBlocks returns, by block index, whether a block runs only on one
// side of a branch (not a loop's "next element" test) whose condition
// derives from state read under a lock, directly or through enclosing
// branches. Linear in the function size times its nesting depth.
func (fs *funcState) guardedBlocks() []bool {
	blocks := fs.fn.Blocks
	guardBranch := make([]bool, len(blocks))
	for _, b := range blocks {
		c := ifCond(b)
		if c == nil || iterationTest(b) {
			continue
		}
		fs.taint[c].each(func(r int) {
			guardBranch[b.Index] = guardBranch[b.Index] || len(fs.reads[r].held) > 0
		})
		if guardBranch[b.Index] && fs.keyTest(c) {
			// Which entry it is, not what state it is in: a key still
			// names the same entry, if that is still there.
			guardBranch[b.Index] = false
		}
	}
	guarded := make([]bool, len(blocks))
	// In dominator order a branch is mostly seen before what it decides,
	// so one round settles nearly everything; loops take another.
	order := fs.fn.DomPreorder()
	for changed := true; changed; {
		changed = false
		for _, b := range order {
			if guarded[b.Index] {
				continue
			}
			for _, d := range fs.cd.deps[b.Index] {
				if guardBranch[d.block.Index] || guarded[d.block.Index] {
					guarded[b.Index], changed = true, true
					break
				}
			}
		}
	}
	return guarded
}

// testsCopy reports whether v is computed from (a field of) an element
// of a slice of values that read ri returned, or from ri's own value,
// directly or through a local variable it was copied into: a copy taken
// in ri's section, as stale as ri itself. A pointer element is not a copy
// (its fields are read now).
func (fs *funcState) testsCopy(v ssa.Value, ri, depth int) bool {
	if depth > 6 {
		return false
	}
	if instr, ok := v.(ssa.Instruction); ok && depth > 0 {
		if i, ok := fs.readIdx[instr]; ok && i == ri && fs.reads[ri].value == v {
			return true // a struct read whole into a local (q := m.quota; q.used)
		}
	}
	switch x := v.(type) {
	case *ssa.Field:
		return fs.testsCopy(x.X, ri, depth+1)
	case *ssa.BinOp:
		return fs.testsCopy(x.X, ri, depth+1) || fs.testsCopy(x.Y, ri, depth+1)
	case *ssa.UnOp:
		if x.Op == token.NOT {
			return fs.testsCopy(x.X, ri, depth+1)
		}
		if x.Op != token.MUL {
			return false
		}
		addr := x.X
		for fa, ok := addr.(*ssa.FieldAddr); ok; fa, ok = addr.(*ssa.FieldAddr) {
			addr = fa.X
		}
		switch a := addr.(type) {
		case *ssa.IndexAddr:
			_, slice := a.X.Type().Underlying().(*types.Slice)
			return slice && fs.taint[a.X].has(ri)
		case *ssa.Alloc:
			if a.Parent() != fs.fn {
				return false
			}
			if a.Heap {
				// Captured: a closure called in place may have stored
				// what it read there.
				return fs.storedByClosure(a, ri)
			}
			if vals, ok := fs.reachingOf(x, a); ok {
				// Only what reaches the test: a copy taken again from
				// fresh state before it (cc = m[k] in the if) is no copy
				// of ri.
				return slices.ContainsFunc(vals, func(v ssa.Value) bool { return fs.testsCopy(v, ri, depth+1) })
			}
			for _, ref := range *a.Referrers() {
				if st, ok := ref.(*ssa.Store); ok && st.Addr == a && fs.testsCopy(st.Val, ri, depth+1) {
					return true
				}
			}
		}
	}
	return false
}

// callFailed reports whether cond tests the error a call returned
// (err != nil, err == nil).
func callFailed(cond ssa.Value) bool {
	x, op := nilTest(cond)
	if op == 0 || !isError(x.Type()) {
		return false
	}
	if e, ok := x.(*ssa.Extract); ok {
		x = e.Tuple
	}
	_, ok := x.(*ssa.Call)
	return ok
}

// comparesBound reports whether cond orders read ri against something
// (<, <=, >, >=), looking through negation and && / ||.
func (fs *funcState) comparesBound(cond ssa.Value, ri int) bool {
	return fs.comparesBoundVia(cond, ri, nil)
}

func (fs *funcState) comparesBoundVia(cond ssa.Value, ri int, seen map[*ssa.Phi]bool) bool {
	switch c := cond.(type) {
	case *ssa.UnOp:
		if c.Op == token.NOT {
			return fs.comparesBoundVia(c.X, ri, seen)
		}
	case *ssa.BinOp:
		switch c.Op {
		case token.LSS, token.LEQ, token.GTR, token.GEQ:
			if usesClock(c, 0) {
				return false // a timeout or age: approximate by nature
			}
			found := false
			fs.directReads(c, func(r int) { found = found || r == ri })
			return found
		}
	case *ssa.Phi: // && and || become phis of constants and operands
		if seen[c] {
			return false // (a loop's phi, through itself)
		}
		if seen == nil {
			seen = map[*ssa.Phi]bool{}
		}
		seen[c] = true
		for _, e := range c.Edges {
			if _, ok := e.(*ssa.Const); !ok && fs.comparesBoundVia(e, ri, seen) {
				return true
			}
		}
	case *ssa.Call:
		// A helper answering whether what it read is within a bound
		// (q.Full(), q.HasRoom()).
		i, ok := fs.readIdx[c]
		return ok && i == ri && fs.reads[ri].bound
	}
	return false
}

// boundTests lists the comparisons that decide v, the bool returned at
// the end of block b, and may compare a read with a bound: v itself, or,
// for a constant, the branches that chose the way to b (if
// len(q.items) >= q.max { return false }). A read is returned as a
// bound when one of them compares it (comparesBound); gathered once per
// return, not once per read.
func (fs *funcState) boundTests(b *ssa.BasicBlock, v ssa.Value) []ssa.Value {
	if !types.Identical(v.Type().Underlying(), types.Typ[types.Bool]) {
		return nil
	}
	v = fs.assigned(v)
	if !boolConst(v) {
		if comparesWithZero(v) {
			return nil
		}
		return []ssa.Value{v}
	}
	var tests []ssa.Value
	fs.eachDep(b, func(d branch) {
		if c := ifCond(d.block); c != nil && !comparesWithZero(c) {
			tests = append(tests, c)
		}
	})
	return tests
}

// withoutNegation is cond with its ! operators taken off.
func withoutNegation(cond ssa.Value) ssa.Value {
	cond, _ = negations(cond)
	return cond
}

// negations strips the negations around cond, saying whether their
// number was odd (the branch sides swap).
func negations(cond ssa.Value) (ssa.Value, bool) {
	odd := false
	for {
		u, ok := cond.(*ssa.UnOp)
		if !ok || u.Op != token.NOT {
			return cond, odd
		}
		cond, odd = u.X, !odd
	}
}

// comparesWithZero reports whether cond, through negations, compares
// something with 0: len(q.items) > 0 asks whether there is anything, as
// an existence test does, and bounds nothing.
func comparesWithZero(cond ssa.Value) bool {
	cond = withoutNegation(cond)
	b, ok := cond.(*ssa.BinOp)
	return ok && (isEmpty(b.X, true) || isEmpty(b.Y, true))
}

// claims reports whether write w2, in section A, acts on the decision A
// took on read ri so that the decision holds for others too: it is
// decided by a branch testing ri, and it moves the state that branch
// tested (pending to running, a slot reserved by bumping a count) or
// registers what section B's write w later follows up (a waiter added
// in A, removed in B).
func (fs *funcState) claims(w2 *writeSite, ri int, w *writeSite) bool {
	var tested []Path
	decides := false
	fs.eachDep(w2.instr.Block(), func(d branch) {
		if c := ifCond(d.block); c != nil {
			fs.directReads(c, func(r int) {
				tested = append(tested, fs.reads[r].loc)
				decides = decides || r == ri
			})
		}
	})
	return decides && (w2.loc.overlaps(w.loc) || slices.ContainsFunc(tested, w2.loc.overlaps))
}

// replacesContainer reports whether the call instr also stores the map or
// slice that holds loc (e.g. m = make(...) before filling m[k]).
func (fs *funcState) replacesContainer(instr ssa.Instruction, loc Path) bool {
	steps, ok := containerSteps(loc)
	if !ok {
		return false
	}
	for _, w := range fs.writes {
		if w.instr == instr && w.loc.Root == loc.Root && w.loc.Steps == steps {
			return true
		}
	}
	return false
}

// containerSteps returns the steps to the map or slice holding the
// element loc, and whether loc is an element.
func containerSteps(loc Path) (string, bool) {
	steps, isElement := strings.CutSuffix(loc.Steps, "[];")
	return strings.TrimSuffix(steps, "*;"), isElement
}

// madeIn reports whether v is computed inside the section of lock k that
// held denotes.
func (fs *funcState) madeIn(v ssa.Value, held lockState, k pathKey) bool {
	instr, ok := v.(ssa.Instruction)
	if !ok || instr.Block() == nil {
		return false
	}
	return sameSection(fs.heldAt(instr), held, k)
}

// versionFlag reports whether cond tests a flag that a version test set
// (lost := true ... if lost { return }): a re-check only against what
// the version compared with.
func (fs *funcState) versionFlag(cond ssa.Value) bool {
	cond = withoutNegation(cond)
	phi, ok := cond.(*ssa.Phi)
	if !ok || !fs.flagPhi(phi) {
		return false
	}
	for _, c := range fs.phiGateBlocks(phi) {
		if slices.ContainsFunc(fs.versionTestsOf(), func(t versionTest) bool { return t.block == c }) {
			return true
		}
	}
	return false
}

// inSectionWith reports whether blocks a and b start inside one section
// of some lock.
func (fs *funcState) inSectionWith(a, b *ssa.BasicBlock) bool {
	sa, sb := fs.flow.entry[a], fs.flow.entry[b]
	return slices.ContainsFunc(sa, func(h heldLock) bool { return sameSection(sa, sb, h.key) })
}

// heldAt returns the locks held just before instr.
func (fs *funcState) heldAt(instr ssa.Instruction) lockState {
	b := instr.Block()
	s := fs.flow.entry[b]
	for _, x := range b.Instrs {
		if x == instr {
			break
		}
		s = fs.flow.step(s, x)
	}
	return s
}

// handedBack reports whether v is returned by the function (directly,
// through phis and conversions, or inside a new object returned).
func (fs *funcState) handedBack(v ssa.Value) bool {
	seen := map[ssa.Value]bool{}
	work := []ssa.Value{v}
	for len(work) > 0 {
		x := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[x] {
			continue
		}
		seen[x] = true
		refs := x.Referrers()
		if refs == nil {
			continue
		}
		for _, r := range *refs {
			switch r := r.(type) {
			case *ssa.Return:
				return true
			case *ssa.Phi:
				work = append(work, r)
			case *ssa.MakeInterface:
				work = append(work, r)
			case *ssa.ChangeType:
				work = append(work, r)
			case *ssa.Store:
				if a := fs.localRoot(r.Addr); a != nil && r.Val == x {
					// A named result or captured local: follow its loads.
					// A new object holding it (&wrapper{inner: x}): follow
					// the object.
					if a.Heap {
						work = append(work, a)
					}
					if arefs := a.Referrers(); arefs != nil {
						for _, ar := range *arefs {
							if u, ok := ar.(*ssa.UnOp); ok {
								work = append(work, u)
							}
						}
					}
				}
			}
		}
	}
	return false
}

// superseded reports whether the stale read ri is read again, on every path
// to w, in a later section that an outer lock serialises with w's (the
// double check of a cache made under a fetch lock), and that read decides
// w too: the decision that counts is the later one.
func (fs *funcState) superseded(ri int, w *writeSite, k pathKey, decide bitset) bool {
	r := &fs.reads[ri]
	if fs.readsAt == nil {
		fs.readsAt = make(map[pathKey][]int)
		for i, x := range fs.reads {
			// Only a read under two locks can be serialised with w by
			// the other one.
			if len(x.held) > 1 {
				fs.readsAt[x.loc.key()] = append(fs.readsAt[x.loc.key()], i)
			}
		}
	}
	for _, i := range fs.readsAt[r.loc.key()] {
		r2 := &fs.reads[i]
		if i == ri || !decide.has(i) || !fs.dominates(r.instr, r2.instr) || !fs.dominates(r2.instr, w.instr) {
			continue
		}
		if _, ok := r2.held.lookup(k); !ok {
			continue
		}
		if outerLock(r2.held, w.held, k) {
			return true
		}
	}
	return false
}

// outerLock reports whether a lock other than k is held, in one section,
// across both points: it serialises the gap.
func outerLock(a, b lockState, k pathKey) bool {
	for _, h := range a {
		if h.key != k && sameSection(a, b, h.key) {
			return true
		}
	}
	return false
}

// IsUpgrade reports whether the gap is a read-lock to write-lock upgrade
// of a sync.RWMutex (rlockgap's); every other gap is staleguard's.
func (g *Gap) IsUpgrade() bool { return g.AMode == Read && g.BMode == Write }

// usesClock reports whether v is computed from a call into package time
// (time.Since, time.Now().Sub, ...), looking through arithmetic.
func usesClock(v ssa.Value, depth int) bool {
	if depth > 6 {
		return false
	}
	switch x := v.(type) {
	case *ssa.Call:
		if f := x.Call.StaticCallee(); f != nil && f.Pkg != nil && f.Pkg.Pkg.Path() == "time" {
			return true
		}
		if fn, ok := x.Call.Value.(*ssa.Function); ok && fn.Object() != nil && fn.Object().Pkg() != nil && fn.Object().Pkg().Path() == "time" {
			return true
		}
	case *ssa.BinOp:
		return usesClock(x.X, depth+1) || usesClock(x.Y, depth+1)
	case *ssa.UnOp:
		return usesClock(x.X, depth+1)
	case *ssa.Convert:
		return usesClock(x.X, depth+1)
	case *ssa.ChangeType:
		return usesClock(x.X, depth+1)
	}
	return false
}

var errorType = types.Universe.Lookup("error").Type()

func isError(t types.Type) bool { return types.Identical(t, errorType) }

func isBool(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsBoolean != 0
}

// before reports whether a may execute before b on some path (a earlier
// in the same block, or b's block reachable from a's).
func (fs *funcState) before(a, b ssa.Instruction) bool {
	ab, bb := a.Block(), b.Block()
	if ab == bb {
		for _, x := range ab.Instrs {
			if x == a {
				return true
			}
			if x == b {
				return false
			}
		}
		return false
	}
	return fs.reachable(ab, bb)
}

// index builds the lookups findGaps needs per write, so that the search
// stays close to linear in the function's size: the reads and writes of
// each section (by opener), and the stale decisions of each read.
func (fs *funcState) index(decisions []staleDecision) {
	fs.readsIn = make(map[int][]int)
	fs.writesIn = make(map[int][]int)
	fs.decisionsOf = make(map[int][]staleDecision)
	for i, r := range fs.reads {
		for _, h := range r.held {
			for _, o := range h.openers {
				fs.readsIn[o] = append(fs.readsIn[o], i)
			}
		}
	}
	for i, w := range fs.writes {
		for _, h := range w.held {
			for _, o := range h.openers {
				fs.writesIn[o] = append(fs.writesIn[o], i)
			}
		}
	}
	for _, d := range decisions {
		fs.decisionsOf[d.read] = append(fs.decisionsOf[d.read], d)
	}
}

// inSection lists the members of an index that hold lock k in the section
// a denotes.
func (fs *funcState) inSection(idx map[int][]int, a heldLock, k pathKey, held func(int) lockState) []int {
	if len(a.openers) == 1 {
		out := idx[a.openers[0]][:0:0]
		for _, i := range idx[a.openers[0]] {
			if h, ok := held(i).lookup(k); ok && intersects(h.openers, a.openers) {
				out = append(out, i)
			}
		}
		return out
	}
	seen := map[int]bool{}
	var out []int
	for _, o := range a.openers {
		for _, i := range idx[o] {
			if seen[i] {
				continue
			}
			seen[i] = true
			if h, ok := held(i).lookup(k); ok && intersects(h.openers, a.openers) {
				out = append(out, i)
			}
		}
	}
	slices.Sort(out)
	return out
}

// failsAloud reports whether every way on from b, where a re-check found
// the entry missing, returns a non-nil error (as the function's last
// result) without reaching w: the function gives up, and says so.
func (fs *funcState) failsAloud(b *ssa.BasicBlock, w *writeSite) bool {
	res := fs.fn.Signature.Results()
	if res.Len() == 0 || !isError(res.At(res.Len()-1).Type()) {
		return false
	}
	seen := map[*ssa.BasicBlock]bool{b: true}
	work := []*ssa.BasicBlock{b}
	var returned []ssa.Value
	for len(work) > 0 {
		x := work[len(work)-1]
		work = work[:len(work)-1]
		if x == w.instr.Block() || len(seen) > 64 {
			return false
		}
		switch last := x.Instrs[len(x.Instrs)-1].(type) {
		case *ssa.Return:
			if len(last.Results) == 0 {
				return false
			}
			returned = append(returned, last.Results[len(last.Results)-1])
		case *ssa.Panic:
		default:
			for _, s := range x.Succs {
				if !seen[s] {
					seen[s] = true
					work = append(work, s)
				}
			}
		}
	}
	for _, v := range returned {
		if !nonNilOnWay(v, seen) {
			return false
		}
	}
	return len(returned) > 0
}

// nonNilOnWay reports whether the error v a return hands back is not nil:
// not the nil constant, nor, for a function with defers (which returns
// what its result variable holds), a variable that the blocks on the way
// set to nil, or do not set at all.
func nonNilOnWay(v ssa.Value, way map[*ssa.BasicBlock]bool) bool {
	ld, ok := v.(*ssa.UnOp)
	if !ok || ld.Op != token.MUL {
		return !isNil(v)
	}
	slot, ok := ld.X.(*ssa.Alloc)
	if !ok {
		return true
	}
	set := false
	for _, r := range *slot.Referrers() {
		if st, ok := r.(*ssa.Store); ok && st.Addr == ssa.Value(slot) && way[st.Block()] {
			if isNil(st.Val) {
				return false
			}
			set = true
		}
	}
	return set
}

// errorResult returns the value of call's last result when it is an
// error, or nil.
func errorResult(call ssa.Instruction) ssa.Value {
	c, ok := call.(*ssa.Call)
	if !ok {
		return nil
	}
	res := c.Call.Signature().Results()
	if res.Len() == 0 || !isError(res.At(res.Len()-1).Type()) {
		return nil
	}
	if res.Len() == 1 {
		return c
	}
	for _, r := range *c.Referrers() {
		if x, ok := r.(*ssa.Extract); ok && x.Index == res.Len()-1 {
			return x
		}
	}
	return nil
}

// errorKept reports whether the error call returns is used: tested,
// returned or handed on, not dropped.
func errorKept(call ssa.Instruction) bool {
	v := errorResult(call)
	return v != nil && v.Referrers() != nil && len(*v.Referrers()) > 0
}

// errorReturned reports whether the error call returns is returned as it
// is by the function making it (also through the result variable a
// function with defers keeps it in).
func errorReturned(call ssa.Instruction) bool {
	v := errorResult(call)
	if v == nil || v.Referrers() == nil {
		return false
	}
	returned := func(x ssa.Value) bool {
		for _, r := range *x.Referrers() {
			if ret, ok := r.(*ssa.Return); ok && len(ret.Results) > 0 && ret.Results[len(ret.Results)-1] == x {
				return true
			}
		}
		return false
	}
	if returned(v) {
		return true
	}
	for _, r := range *v.Referrers() {
		st, ok := r.(*ssa.Store)
		if !ok || st.Val != v {
			continue
		}
		if slot, ok := st.Addr.(*ssa.Alloc); ok {
			for _, u := range *slot.Referrers() {
				if ld, ok := u.(*ssa.UnOp); ok && ld.Op == token.MUL && returned(ld) {
					return true
				}
			}
		}
	}
	return false
}

// mayBeDropped reports whether w could be guarded by a re-check that gives
// up when an entry is missing: a helper's existence guard with the write
// on the present side, or such a branch here.
func (fs *funcState) mayBeDropped(w *writeSite) bool {
	for _, g := range w.guards {
		if g.existence && !g.writeOnMissing && !g.missingCreates {
			return true
		}
	}
	found := false
	fs.eachDep(w.instr.Block(), func(d branch) {
		if c := ifCond(d.block); c != nil && !found {
			if _, missing, ok := existenceTest(c); ok && d.succ != missing {
				found = true
			}
		}
	})
	return found
}

// restores reports whether w puts back the very value an earlier read
// took from the same place (save, swap in, restore): a deliberate restore,
// not an update. The value may pass through a local variable (one a
// closure captured, say).
func (fs *funcState) restores(w *writeSite) bool {
	v := w.stored
	if v == nil {
		return false
	}
	if load, ok := v.(*ssa.UnOp); ok && load.Op == token.MUL {
		if a := fs.localRoot(load.X); a != nil && load.X == ssa.Value(a) {
			var only ssa.Value
			n := 0
			for _, ref := range *a.Referrers() {
				if st, ok := ref.(*ssa.Store); ok && st.Addr == ssa.Value(a) {
					only = st.Val
					n++
				}
				if fa, ok := ref.(*ssa.FieldAddr); ok && slices.ContainsFunc(*fa.Referrers(), func(r ssa.Instruction) bool {
					st, ok := r.(*ssa.Store)
					return ok && st.Addr == ssa.Value(fa)
				}) {
					return false // a field of the saved copy was changed: not what was read
				}
			}
			if n == 1 {
				v = only
			}
		}
	}
	instr, ok := v.(ssa.Instruction)
	if !ok {
		return false
	}
	ri, ok := fs.readIdx[instr]
	return ok && fs.reads[ri].value == v && fs.reads[ri].loc.key() == w.loc.key()
}

// recordsFailure reports whether w stores into an error-typed location an
// error that is not the value of read ri itself: the outcome of an
// operation made since (even one on an object A read) is a new failure.
func (fs *funcState) recordsFailure(w *writeSite, ri int) bool {
	if w.kind != writeStore || w.stored == nil || w.removal || !isError(w.stored.Type()) {
		return false
	}
	return !fs.carriesDirectly(w.stored, ri)
}

// carriesDirectly reports whether v is the value of read ri itself, passed
// on through variables, phis and conversions but not through a call: an
// error built by a call describes a failure, whatever it mentions.
func (fs *funcState) carriesDirectly(v ssa.Value, ri int) bool {
	seen := map[ssa.Value]bool{}
	var carries func(v ssa.Value) bool
	carries = func(v ssa.Value) bool {
		if v == nil || seen[v] {
			return false
		}
		seen[v] = true
		if instr, ok := v.(ssa.Instruction); ok {
			if i, ok := fs.readIdx[instr]; ok && i == ri {
				return true
			}
		}
		switch x := v.(type) {
		case *ssa.Phi:
			return slices.ContainsFunc(x.Edges, carries)
		case *ssa.MakeInterface:
			return carries(x.X)
		case *ssa.ChangeInterface:
			return carries(x.X)
		case *ssa.TypeAssert:
			return carries(x.X)
		case *ssa.Extract:
			if _, call := x.Tuple.(*ssa.Call); !call {
				return carries(x.Tuple)
			}
		case *ssa.UnOp:
			if a := fs.localRoot(x.X); a != nil && x.Op == token.MUL {
				if vals, ok := fs.reachingOf(x, a); ok {
					return slices.ContainsFunc(vals, carries)
				}
				return fs.taint[v].has(ri) // no single store reaches: be conservative
			}
		}
		return false
	}
	return carries(v)
}

// drivesCodeUnderTest reports whether g is in a test file and the lock
// belongs to a value of a type declared outside the tests (is its field,
// even when the test reaches it through a harness of its own), taken
// directly or through the code's own methods: the test is driving the code under
// test by hand, one step after another (often putting back what it took
// out, to stage a race on purpose), not running concurrently with itself.
// Locks of types the tests declare (fakes, harnesses) are still checked.
func (fs *funcState) drivesCodeUnderTest(g *Gap) bool {
	if !inTestFile(fs.fn) || g.Lock.Root == nil {
		return false
	}
	holder := g.Lock.Root.Type()
	walkPath(g.Lock, func(h types.Type, _ *types.Var, isLast bool) {
		if isLast {
			holder = h // the struct the lock is a field of
		}
	})
	test, ok := declaredInTest(fs.fn.Prog, holder)
	return ok && !test
}

// declaredInTest reports whether t (or what it points to) is a named type
// declared in a _test.go file; ok is false when t is not named.
func declaredInTest(prog *ssa.Program, t types.Type) (test, ok bool) {
	named, ok := types.Unalias(deref(t)).(*types.Named)
	if !ok {
		return false, false
	}
	pos := named.Origin().Obj().Pos()
	if !pos.IsValid() {
		return false, false
	}
	return strings.HasSuffix(prog.Fset.Position(pos).Filename, "_test.go"), true
}

// unsharedLocal reports whether g's lock belongs to an object this
// function allocated and never lets another goroutine reach: it is only
// dereferenced here or handed to functions of the package that do the
// same (no go statement, closure, store, send or interface conversion on
// the way), so no one can act between the sections. The lock must be
// the object's own: one reached through a pointer (s.host.mu) belongs to
// whatever the pointer points to, which may be shared however new s is;
// and a variable holding a pointer (captured by a closure) is not the
// object it points to (newInCapturedVar follows it).
func (fs *funcState) unsharedLocal(g *Gap) bool {
	a, ok := g.Lock.Root.(*ssa.Alloc)
	if ok && a.Parent() == fs.fn && (g.Lock.Steps == "" || ownFields(g.Lock.Steps)) &&
		(staysLocal(a, 0) || fs.unpublishedAt(a, g.BOpenInst)) {
		return true
	}
	if c, ok := g.Lock.Root.(*ssa.Call); ok && c.Parent() == fs.fn && (g.Lock.Steps == "" || ownFields(g.Lock.Steps)) &&
		fs.e.returnsFresh(&c.Call) && fs.e.onlyOwnMethods(c) {
		// A new object from a constructor (a set made for one loop),
		// used only through methods that keep it local.
		return true
	}
	return fs.newInCapturedVar(g)
}

// onlyOwnMethods reports whether every use of v keeps it local as
// staysLocal means it, where a method of another package, whose body is
// not here, counts when its LockSummary says it keeps its receiver and v
// is that receiver alone.
func (e *engine) onlyOwnMethods(v ssa.Value) bool {
	for _, ref := range *v.Referrers() {
		if refStaysLocal(v, ref, 0) {
			continue
		}
		call, ok := ref.(*ssa.Call)
		if !ok || call.Call.IsInvoke() || call.Call.Value == v || len(call.Call.Args) == 0 || call.Call.Args[0] != v || slices.Contains(call.Call.Args[1:], v) {
			return false
		}
		callee := call.Call.StaticCallee()
		if callee == nil || callee.Signature.Recv() == nil || e.pass == nil {
			return false
		}
		obj, ok := callee.Object().(*types.Func)
		var fact LockSummary
		if !ok || obj.Pkg() == e.pass.Pkg || !e.pass.ImportObjectFact(obj, &fact) || !fact.KeepsReceiver {
			return false
		}
	}
	return true
}

// unpublishedAt reports whether no use that could let another goroutine
// reach the object a can run before at: it is stored, returned, sent or
// handed on only later (a value built and filled here, then returned).
// Calls of methods on its fields (a set it holds) do not let the object
// out; anything but loads, stores into it and such calls does.
func (fs *funcState) unpublishedAt(a *ssa.Alloc, at ssa.Instruction) bool {
	if at == nil {
		return false
	}
	var out []ssa.Instruction
	var visit func(v ssa.Value, depth int) bool
	visit = func(v ssa.Value, depth int) bool {
		if depth > 4 {
			return false
		}
		for _, r := range *v.Referrers() {
			switch x := r.(type) {
			case *ssa.FieldAddr:
				if !visit(x, depth+1) {
					return false
				}
				continue
			case *ssa.DebugRef:
				continue
			case *ssa.UnOp:
				if x.Op == token.MUL {
					continue
				}
			case *ssa.Store:
				if x.Addr == v && x.Val != v {
					continue
				}
			case *ssa.Call:
				c := x.Common()
				if _, lock := syncLockOp(c); lock {
					continue
				}
				if v != ssa.Value(a) && !c.IsInvoke() && c.Signature().Recv() != nil && len(c.Args) > 0 && c.Args[0] == v &&
					!slices.Contains(c.Args[1:], v) {
					continue // a method of the field it holds
				}
			}
			out = append(out, r)
		}
		return true
	}
	if !visit(a, 0) {
		return false
	}
	for _, p := range out {
		if fs.before(p, at) || p.Block() == at.Block() && fs.reachableFromEnd(p.Block(), at.Block()) {
			return false
		}
	}
	return true
}

// staysLocal reports whether v (a pointer) is only dereferenced, has
// fields taken, or is passed to static callees in which the parameter
// stays local too, and those callees start no goroutine.
func staysLocal(v ssa.Value, depth int) bool { return staysLocalIn(v, depth, nil) }

// staysLocalIn is staysLocal; seen holds the callees' parameters whose
// uses are being followed: a recursive call handing one on keeps it as
// local as the rest of those uses do.
func staysLocalIn(v ssa.Value, depth int, seen map[*ssa.Parameter]bool) bool {
	if depth > 3 {
		return false
	}
	for _, ref := range *v.Referrers() {
		if !refStaysLocalIn(v, ref, depth, seen) {
			return false
		}
	}
	return true
}

// refStaysLocal reports whether one use of v keeps it local, as staysLocal
// means it.
func refStaysLocal(v ssa.Value, ref ssa.Instruction, depth int) bool {
	return refStaysLocalIn(v, ref, depth, nil)
}

func refStaysLocalIn(v ssa.Value, ref ssa.Instruction, depth int, seen map[*ssa.Parameter]bool) bool {
	switch x := ref.(type) {
	case *ssa.FieldAddr:
		return staysLocalIn(x, depth, seen)
	case *ssa.UnOp:
		return x.Op == token.MUL
	case *ssa.Store:
		return x.Val != v
	case *ssa.DebugRef:
		return true
	case *ssa.BinOp:
		return true // compared (w == nil), which shows it to no one
	case *ssa.Call, *ssa.Defer:
		call := x.(ssa.CallInstruction).Common()
		callee := call.StaticCallee()
		if callee == nil || call.Value == v {
			return false
		}
		if obj := callee.Object(); obj != nil && obj.Pkg() != nil && obj.Pkg().Path() == "sync" {
			return true // locking it
		}
		if len(callee.Blocks) == 0 {
			return false
		}
		for i, arg := range call.Args {
			if arg != v {
				continue
			}
			if i >= len(callee.Params) || startsGoroutine(callee) {
				return false
			}
			p := callee.Params[i]
			if seen[p] {
				continue
			}
			if seen == nil {
				seen = make(map[*ssa.Parameter]bool)
			}
			seen[p] = true
			local := staysLocalIn(p, depth+1, seen)
			delete(seen, p)
			if !local {
				return false
			}
		}
		return true
	}
	return false
}

// startsGoroutine reports whether fn has a go statement or makes a
// closure (which might run elsewhere).
func startsGoroutine(fn *ssa.Function) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch instr.(type) {
			case *ssa.Go, *ssa.MakeClosure:
				return true
			}
		}
	}
	return false
}

// fixedValue identifies v when it is the same in every execution: a
// constant, or a package variable only package initialisation sets
// (looking through conversions to an interface); nil otherwise.
// fixedKey names fixedValue(v) so that summaries and facts can carry it:
// "" when v is not such a value.
func (fs *funcState) fixedKey(v ssa.Value) string {
	switch x := fs.fixedValue(v).(type) {
	case string:
		return x
	case *ssa.Global:
		return x.Pkg.Pkg.Path() + "." + x.Name()
	}
	return ""
}

func (fs *funcState) fixedValue(v ssa.Value) any {
	switch x := v.(type) {
	case *ssa.MakeInterface:
		return fs.fixedValue(x.X)
	case *ssa.ChangeInterface:
		return fs.fixedValue(x.X)
	case *ssa.Const:
		if x.Value == nil {
			if st, ok := x.Type().Underlying().(*types.Struct); ok && st.NumFields() == 0 {
				return "struct{}{}" // a set's member: every racer stores the same nothing
			}
			return nil
		}
		return x.Value.ExactString() + "/" + x.Type().String()
	case *ssa.UnOp:
		if fs.e.sentinelLoad(x) {
			return x.X
		}
		if x.Op == token.MUL {
			if lit, ok := x.X.(*ssa.Alloc); ok {
				return fs.constantLiteral(lit, x)
			}
		}
	}
	return nil
}

// constantLiteral names the struct value load reads from lit when lit is
// a composite literal of constants alone (cacheEntry{unsafe, nil}): each
// field stored once, with a fixed value or nil, before load and in its
// block, and nothing else done with lit. Every racer storing it stores
// an equal value. nil when it is not one.
func (fs *funcState) constantLiteral(lit *ssa.Alloc, load *ssa.UnOp) any {
	st, ok := deref(lit.Type()).Underlying().(*types.Struct)
	if !ok || lit.Block() != load.Block() {
		return nil
	}
	fields := make([]string, st.NumFields())
	for _, ref := range *lit.Referrers() {
		switch r := ref.(type) {
		case *ssa.DebugRef:
			continue
		case *ssa.UnOp:
			if r == load {
				continue
			}
			return nil
		case *ssa.FieldAddr:
			if fields[r.Field] != "" || r.Block() != load.Block() {
				return nil
			}
			for _, u := range *r.Referrers() {
				store, ok := u.(*ssa.Store)
				if !ok || store.Addr != ssa.Value(r) || store.Block() != load.Block() || !fs.before(store, load) {
					return nil
				}
				if c, ok := store.Val.(*ssa.Const); ok && c.Value == nil {
					fields[r.Field] = "nil"
					continue
				}
				key, ok := fs.fixedValue(store.Val).(string)
				if !ok {
					return nil
				}
				fields[r.Field] = key
			}
		default:
			return nil
		}
	}
	return types.TypeString(deref(lit.Type()), nil) + "{" + strings.Join(fields, ",") + "}"
}

// perCallKey reports whether the stale read looks up, and w stores, the
// entry of a key that belongs to this call alone: the *http.Request a
// server hands to one ServeHTTP call, passed down through functions only
// the package calls. No other goroutine holds that key, so none can have
// stored its entry in the gap (per-request state keyed by the request).
func (fs *funcState) perCallKey(r *readSite, w *writeSite) bool {
	up, ok := w.instr.(*ssa.MapUpdate)
	if !ok {
		return false
	}
	lookup, ok := r.instr.(*ssa.Lookup)
	if !ok || lookup.Index != up.Key {
		return false
	}
	return fs.e.requestOfOneCall(up.Key, 0)
}

func (e *engine) requestOfOneCall(v ssa.Value, depth int) bool {
	if mi, ok := v.(*ssa.MakeInterface); ok {
		v = mi.X
	}
	p, ok := v.(*ssa.Parameter)
	if !ok || depth > 4 {
		return false
	}
	fn := p.Parent()
	i := paramIndex(fn, p)
	if servesHTTP(fn) && i == len(fn.Params)-1 {
		return true
	}
	if !e.callsKnown(fn) || fn.Parent() != nil || i < 0 {
		return false
	}
	for _, c := range e.calls[fn] {
		call, ok := c.instr.(ssa.CallInstruction)
		if !ok {
			return false
		}
		args := call.Common().Args
		if i >= len(args) || !e.requestOfOneCall(args[i], depth+1) {
			return false
		}
	}
	return true
}

// servesHTTP reports whether fn is a ServeHTTP method with net/http's
// Handler signature.
func servesHTTP(fn *ssa.Function) bool {
	sig := fn.Signature
	if fn.Name() != "ServeHTTP" || sig.Recv() == nil || sig.Params().Len() != 2 || sig.Results().Len() != 0 {
		return false
	}
	req, ok := sig.Params().At(1).Type().(*types.Pointer)
	if !ok {
		return false
	}
	named, ok := types.Unalias(req.Elem()).(*types.Named)
	return ok && named.Obj().Name() == "Request" && named.Obj().Pkg() != nil && named.Obj().Pkg().Path() == "net/http"
}

// ordersOnly reports whether read ri reaches what the function collects
// only by deciding where each element goes: it is in no element collected
// (appended, stored into a slice element or a map), and every branch it
// decides collects the same elements on both sides (quarantined ones
// last, the others first).
func (fs *funcState) ordersOnly(ri int) bool {
	tested := false
	for _, b := range fs.fn.Blocks {
		for _, instr := range b.Instrs {
			for _, v := range collected(instr) {
				if fs.taint[v].has(ri) {
					return false
				}
			}
		}
		c := ifCond(b)
		if c == nil || !fs.taint[c].has(ri) {
			continue
		}
		if iterationTest(b) {
			continue
		}
		tested = true
		a, z := fs.collectedUnder(b.Succs[0], b), fs.collectedUnder(b.Succs[1], b)
		if len(a) == 0 || !slices.Equal(a, z) {
			return false
		}
	}
	return tested
}

// collected returns the elements instr puts into a collection: the
// values an append adds, a value stored into a slice element, a map
// update's key and value.
func collected(instr ssa.Instruction) []ssa.Value {
	switch x := instr.(type) {
	case *ssa.Call:
		if isAppend(x) && len(x.Call.Args) > 1 {
			var out []ssa.Value
			for _, a := range x.Call.Args[1:] {
				if sl, ok := a.(*ssa.Slice); ok {
					if _, varargs := sl.X.(*ssa.Alloc); varargs {
						continue // its elements are the stores into it
					}
				}
				if accumulated(a, map[ssa.Value]bool{}) {
					continue // a listing built here: its appends count
				}
				out = append(out, a)
			}
			return out
		}
	case *ssa.MapUpdate:
		return []ssa.Value{x.Key, x.Value}
	case *ssa.Store:
		if _, ok := x.Addr.(*ssa.IndexAddr); ok {
			return []ssa.Value{x.Val}
		}
	}
	return nil
}

// collectedUnder lists, in block order, the elements collected in the
// blocks that only succ (one side of branch) reaches before the sides
// meet again: the blocks succ dominates.
func (fs *funcState) collectedUnder(succ, branch *ssa.BasicBlock) []ssa.Value {
	if len(succ.Preds) != 1 || succ.Preds[0] != branch {
		return nil
	}
	var out []ssa.Value
	for _, b := range fs.fn.Blocks {
		if !succ.Dominates(b) {
			continue
		}
		for _, instr := range b.Instrs {
			out = append(out, collected(instr)...)
		}
	}
	return out
}

// accumulated reports whether v is a slice the function builds itself by
// appending to an empty one (nil, or made empty), through phis.
func accumulated(v ssa.Value, seen map[ssa.Value]bool) bool {
	if seen[v] {
		return true
	}
	seen[v] = true
	switch x := v.(type) {
	case *ssa.Const:
		return x.IsNil()
	case *ssa.MakeSlice:
		return true
	case *ssa.Phi:
		for _, e := range x.Edges {
			if !accumulated(e, seen) {
				return false
			}
		}
		return true
	case *ssa.Call:
		return isAppend(x) && accumulated(x.Call.Args[0], seen)
	}
	return false
}

// writesOwnerUnlocked reports whether fs's function stores to a field of
// the object a lock's path starts from (a parameter or the receiver) with
// no lock held.
func (fs *funcState) writesOwnerUnlocked(root ssa.Value) bool {
	p, ok := root.(*ssa.Parameter)
	if !ok || p.Parent() != fs.fn {
		return false
	}
	for _, w := range fs.writes {
		if len(w.held) == 0 && w.kind == writeStore && w.loc.Root == p && ownFields(w.loc.Steps) {
			return true
		}
	}
	return false
}

// onNonzeroSide reports whether every branch on the way to w that read
// ri's value decides compares that value, an integer, with zero, and w
// lies on the side where it was not zero (n != 0, n > 0, the else of
// n == 0).
func (fs *funcState) onNonzeroSide(ri int, w *writeSite) bool {
	return fs.onSide(ri, w, nonzeroSide)
}

// onSide reports whether every branch on the way to w that read ri's
// value decides compares that value, an integer, in a way side accepts
// for the successor taken.
func (fs *funcState) onSide(ri int, w *writeSite, side func(cond, v ssa.Value, succ int) bool) bool {
	v := fs.reads[ri].value
	if v == nil {
		return false
	}
	if b, ok := v.Type().Underlying().(*types.Basic); !ok || b.Info()&types.IsInteger == 0 {
		return false
	}
	ok, tested := true, false
	fs.eachDep(w.instr.Block(), func(d branch) {
		c := ifCond(d.block)
		if c == nil || !fs.taint[c].has(ri) {
			return
		}
		tested = true
		ok = ok && side(c, v, d.succ)
	})
	return ok && tested
}

// loadsAtomicIn reports whether some atomic load runs in the section a
// opens (a method Load of a sync/atomic type, or of go.uber.org/atomic's,
// or sync/atomic's Load functions).
func (fs *funcState) loadsAtomicIn(a heldLock) bool {
	if fs.atomicLoads == nil {
		// Listed once per function: a function with many gaps asks for
		// each of them.
		fs.atomicLoads = []ssa.Instruction{}
		for _, b := range fs.fn.Blocks {
			for _, instr := range b.Instrs {
				if call, ok := instr.(*ssa.Call); ok && atomicLoad(call.Call.StaticCallee()) {
					fs.atomicLoads = append(fs.atomicLoads, instr)
				}
			}
		}
	}
	for _, instr := range fs.atomicLoads {
		if h, ok := fs.heldAt(instr).lookup(a.key); ok && intersects(h.openers, a.openers) {
			return true
		}
	}
	return false
}

func atomicLoad(fn *ssa.Function) bool {
	if fn == nil || fn.Pkg == nil || !strings.HasPrefix(fn.Name(), "Load") {
		return false
	}
	switch fn.Pkg.Pkg.Path() {
	case "sync/atomic", "go.uber.org/atomic":
		return true
	}
	return false
}

// foundThere reports whether w comes only past a test that found what
// read ri read there (the non-nil side of a nil test, the found side of a
// comma-ok lookup).
func (fs *funcState) foundThere(ri int, w *writeSite) bool {
	found := false
	fs.eachDep(w.instr.Block(), func(d branch) {
		if subject, missing, ok := existenceTest(ifCond(d.block)); ok && d.succ != missing && fs.taint[subject].has(ri) {
			found = true
		}
	})
	return found
}

// mismatchSide accepts the side of an equality test of v where v is not
// what it was compared with (if id == want { return }). Through onSide,
// only searches over integers (ids) count.
func mismatchSide(cond, v ssa.Value, succ int) bool {
	b, ok := cond.(*ssa.BinOp)
	if !ok || b.X != v && b.Y != v {
		return false
	}
	return b.Op == token.EQL && succ == 1 || b.Op == token.NEQ && succ == 0
}

// atLeastSide reports whether cond compares v with something and its
// successor succ (0 for true, 1 for false) is taken only when v was at
// least that large (v >= n, v > n, the else of v < n): raising v since
// cannot undo the test.
func atLeastSide(cond, v ssa.Value, succ int) bool {
	b, ok := cond.(*ssa.BinOp)
	if !ok {
		return false
	}
	op := b.Op
	switch v {
	case b.X:
	case b.Y:
		op = Mirrored(op) // n < v is v > n
	default:
		return false
	}
	switch op {
	case token.GTR, token.GEQ:
		return succ == 0
	case token.LSS, token.LEQ:
		return succ == 1
	}
	return false
}

// Mirrored returns the comparison that says the same with its operands
// swapped (x < y is y > x); other operators are their own mirror.
func Mirrored(op token.Token) token.Token {
	switch op {
	case token.LSS:
		return token.GTR
	case token.LEQ:
		return token.GEQ
	case token.GTR:
		return token.LSS
	case token.GEQ:
		return token.LEQ
	}
	return op
}

// nonzeroSide reports whether cond compares v with zero and its successor
// succ (0 for true, 1 for false) is taken only when v is not zero.
func nonzeroSide(cond, v ssa.Value, succ int) bool {
	b, ok := cond.(*ssa.BinOp)
	if !ok {
		return false
	}
	zero := func(x ssa.Value) bool {
		c, ok := x.(*ssa.Const)
		return ok && c.Value != nil && c.Value.Kind() == constant.Int && constant.Sign(c.Value) == 0
	}
	op := b.Op
	switch {
	case b.X == v && zero(b.Y):
	case b.Y == v && zero(b.X):
		op = Mirrored(op) // 0 < n is n > 0
	default:
		return false
	}
	switch op {
	case token.EQL:
		return succ == 1
	case token.NEQ, token.GTR:
		return succ == 0
	}
	return false
}

// ownFields reports whether steps select fields of the object itself (an
// embedded struct's included), following no pointer and no index.
func ownFields(steps string) bool {
	for _, s := range strings.Split(steps, ";") {
		if s != "" && !strings.HasPrefix(s, ".") {
			return false
		}
	}
	return steps != ""
}

// lockInPlace returns, for a call of a closure made to be called right
// there, where the closure takes lock (a path of fs's function).
func (fs *funcState) lockInPlace(instr ssa.Instruction, lock Path) (token.Pos, bool) {
	call, ok := instr.(*ssa.Call)
	if !ok {
		return token.NoPos, false
	}
	callee, cs := calleeOf(fs.e.pkg, call)
	if callee == nil || !inPlace(fs.fn, call) || len(cs.bindings) == 0 {
		return token.NoPos, false
	}
	for _, b := range callee.Blocks {
		for _, instr := range b.Instrs {
			c, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			op, ok := syncLockOp(c.Common())
			if !ok || op.kind != opAcquire {
				continue
			}
			if rp, ok := toRel(callee, op.path); ok {
				if p, ok := cs.resolveLock(rp); ok && p.key() == lock.key() {
					return c.Pos(), true
				}
			}
		}
	}
	return token.NoPos, false
}

// storedByClosure reports whether read ri is a call of a closure called
// in place that stores what it read into the variable a.
func (fs *funcState) storedByClosure(a *ssa.Alloc, ri int) bool {
	instr := fs.reads[ri].instr
	return instr != nil && slices.Contains(fs.outs[instr], a)
}

// assigned looks through a load of a local variable (one a closure
// captures, say) to the one value assigned to it that reaches the load.
func (fs *funcState) assigned(v ssa.Value) ssa.Value {
	if ld, ok := v.(*ssa.UnOp); ok && ld.Op == token.MUL {
		if a := fs.localRoot(ld.X); a != nil {
			if vals, ok := fs.reachingOf(ld, a); ok && len(vals) == 1 {
				return vals[0]
			}
		}
	}
	return v
}

// fieldOfValue reports whether p is a field of the struct value q holds
// in place (q a field itself, p reached from it through fields only): a
// test of p reads part of what q's copy was (cache.valid of a cache
// struct copied out), unlike a field of a map entry or of what a pointer
// points to, whose test does not re-decide which entry or object it is.
func fieldOfValue(p, q Path) bool {
	if p.Root != q.Root || !strings.HasPrefix(p.Steps, q.Steps) || len(p.Steps) == len(q.Steps) {
		return false
	}
	last := q.Steps[strings.LastIndex(strings.TrimSuffix(q.Steps, ";"), ";")+1:]
	return strings.HasPrefix(last, ".") && ownFields(p.Steps[len(q.Steps):])
}

// foundTest reports whether cond is, through negations, the result of the
// helper call read ri whose result says only whether an entry is there
// (relRead.found): a test by existence, as the lookup in it would be.
func (fs *funcState) foundTest(cond ssa.Value, ri int) bool {
	cond = withoutNegation(cond)
	c, ok := cond.(*ssa.Call)
	if !ok {
		return false
	}
	i, ok := fs.readIdx[c]
	return ok && i == ri && fs.reads[ri].found
}

// redecided reports whether a section of the same lock, held for writing
// between read ri's and w's, on every way to w, tests again a location ri
// read, that test decides whether w runs, and the section then writes
// what it tested: the decision was taken again there on fresh state and
// claimed (a shutdown that checks the flag under the lock and clears it
// before the last section). What may change after that section is its
// own gap with w, judged on its own.
func (fs *funcState) redecided(ri int, w *writeSite, h heldLock) bool {
	r := &fs.reads[ri]
	a, _ := r.held.lookup(h.key)
	locs := append([]Path{r.loc}, r.also...)
	found := false
	fs.blockCtl[w.instr.Block().Index].each(func(j int) {
		r2 := &fs.reads[j]
		if found || j == ri || r2.instr == nil {
			return
		}
		if _, call := r2.instr.(ssa.CallInstruction); call {
			return // a helper's own test may give up where the fresh state calls for more
		}
		b, ok := r2.held.lookup(h.key)
		if !ok || b.mode != Write || intersects(b.openers, a.openers) || intersects(b.openers, h.openers) ||
			!fs.before(r.instr, r2.instr) || !fs.dominates(r2.instr, w.instr) || !fs.claimsAfter(r2, b, h.key) {
			return
		}
		// The same location, or one holding it or held by it (the
		// object whose fields A tested), and of an entry by the same key:
		// another entry of the map tested there decides nothing here.
		found = slices.ContainsFunc(locs, func(p Path) bool { return p.overlaps(r2.loc) }) && sameEntryKey(r, r2)
	})
	return found
}

// sameEntryKey reports whether two reads look up an entry by the same
// key, or neither by a key.
func sameEntryKey(r, r2 *readSite) bool {
	return r.key == nil && r2.key == nil || r.key != nil && sameValue(r.key, r2.key)
}

// claimsAfter reports whether section b, after the test of read r, writes
// what r read: the section that re-decided also moved the state, so a
// second caller's test there fails.
func (fs *funcState) claimsAfter(r *readSite, b heldLock, k pathKey) bool {
	for _, i := range fs.inSection(fs.writesIn, b, k, func(i int) lockState { return fs.writes[i].held }) {
		w := &fs.writes[i]
		if fs.dominates(r.instr, w.instr) && w.loc.overlaps(r.loc) {
			return true
		}
	}
	return false
}

// testedReads calls f for the reads the condition of block b tests, as
// directReads finds them and also through a local struct they were copied
// into where that copy reaches the test (cc = m[k]; cc.conn == nil), but
// for a comparison of such a copy with what a parameter carries: a
// version test, which versionGuards judges by the side the write is on.
func (fs *funcState) testedReads(cond ssa.Value, b *ssa.BasicBlock, f func(ri int)) {
	if slices.ContainsFunc(fs.versionTestsOf(), func(t versionTest) bool { return t.block == b }) {
		fs.directReads(cond, f)
		return
	}
	fs.directReadsOf(cond, true, f)
}

// foundCall is existenceTest for the result of a helper that says only
// whether an entry is there (c.Has(k)): the call is the subject, and the
// entry is missing on the false side, through negations.
func (fs *funcState) foundCall(cond ssa.Value) (subject ssa.Value, missing int, ok bool) {
	cond, negated := negations(cond)
	missing = 1
	if negated {
		missing = 0
	}
	c, isCall := cond.(*ssa.Call)
	if !isCall {
		return nil, 0, false
	}
	ri, isRead := fs.readIdx[c]
	if !isRead || !fs.reads[ri].found {
		return nil, 0, false
	}
	return c, missing, true
}

// verdictCall recognises a test of the error result of a helper call
// whose error is a verdict on whether an entry is there (relRead.missing)
// and says which side means missing: err != nil (or ==) where nil, or
// every failure, means missing; where every failure means missing, also
// any test that holds only for a failure (err == ErrNotFound, errors.Is);
// and where one failure among others does, a test for that one.
func (fs *funcState) verdictCall(cond ssa.Value) (subject ssa.Value, missing int, ok bool) {
	var errVal ssa.Value
	var failing int // the side of the test that only a failure takes
	tested := ""    // the sentinel a test for one failure tests for
	cond, negated := negations(cond)
	switch c := cond.(type) {
	case *ssa.BinOp:
		if c.Op != token.EQL && c.Op != token.NEQ {
			return nil, 0, false
		}
		// equal: the side where the two are equal (Succs[0] is where the
		// comparison holds).
		equal := 0
		if c.Op == token.NEQ {
			equal = 1
		}
		switch {
		case isNil(c.Y):
			errVal, failing = c.X, 1-equal
		case isNil(c.X):
			errVal, failing = c.Y, 1-equal
		case sentinelName(c.Y) != "":
			errVal, failing, tested = c.X, equal, sentinelName(c.Y)
		case sentinelName(c.X) != "":
			errVal, failing, tested = c.Y, equal, sentinelName(c.X)
		default:
			return nil, 0, false
		}
	case *ssa.Call:
		f := c.Call.StaticCallee()
		if f == nil || f.Pkg == nil || f.Pkg.Pkg.Path() != "errors" || f.Name() != "Is" || len(c.Call.Args) != 2 {
			return nil, 0, false
		}
		errVal, failing, tested = c.Call.Args[0], 0, sentinelName(c.Call.Args[1])
		if tested == "" {
			tested = "?" // a failure all the same
		}
	default:
		return nil, 0, false
	}
	if negated {
		failing = 1 - failing
	}
	call, _ := errVal.(*ssa.Call)
	if x, isExtract := errVal.(*ssa.Extract); isExtract {
		call, _ = x.Tuple.(*ssa.Call)
		if call == nil || x.Index != call.Call.Signature().Results().Len()-1 {
			return nil, 0, false
		}
	}
	if call == nil {
		return nil, 0, false
	}
	ri, isRead := fs.readIdx[call]
	switch {
	case !isRead || fs.reads[ri].missing == 0:
		return nil, 0, false
	case fs.reads[ri].missing == missingOnFailure:
		return call, failing, true
	case fs.reads[ri].missing == missingOnSentinel:
		if tested == fs.reads[ri].sentinel {
			return call, failing, true
		}
		return nil, 0, false
	case tested != "":
		// A failure other than the one tested for may be nil's side.
		return nil, 0, false
	}
	return call, 1 - failing, true
}

// recreatedBetween reports whether, on every way from the stale read r to
// w, a helper takes h's lock for writing, looks up the entry r read again
// by the same key and creates it where it is missing (a get-or-create,
// summarised as an ensure): whatever A found, the entry was there when
// that section ended, so a give-up in w's section is no longer A's stale
// "it is there" acting; whether the helper's own finding can go stale
// before w is a pair of sections of its own.
func (fs *funcState) recreatedBetween(r *readSite, w *writeSite, h heldLock) bool {
	if r.key == nil || r.instr == nil {
		return false
	}
	var via []ssa.Instruction
	for _, en := range fs.ensured {
		if en.lock == h.key && en.instr != r.instr && en.instr != w.instr && en.loc.key() == r.loc.key() && sameValue(en.key, r.key) {
			via = append(via, en.instr)
		}
	}
	return len(via) > 0 && !reachableAvoiding(r.instr, w.instr, via)
}

// storedBetween reports whether, on every way from the stale read r to
// the removal w, the function stores the entry w removes itself, with h's
// lock held for writing, by the same key and with a value of its own.
func (fs *funcState) storedBetween(r *readSite, w *writeSite, h heldLock) bool {
	if r.instr == nil || !w.keyKnown || len(w.keyFrom) == 0 {
		return false
	}
	var via []ssa.Instruction
	for i := range fs.writes {
		x := &fs.writes[i]
		if x.instr == w.instr || x.instr == r.instr || x.removal || !x.keyKnown || x.loc.key() != w.loc.key() || !holdsForWriting(x.held, h.key) {
			continue
		}
		if x.fixed != "" {
			// A constant (a set's mark) is everyone's: the removal takes
			// out a racer's mark as much as this function's own.
			continue
		}
		if sameKeys(x.keyFrom, w.keyFrom) {
			via = append(via, x.instr)
		}
	}
	return len(via) > 0 && !reachableAvoiding(r.instr, w.instr, via)
}

// sameKeys reports whether two keys are made of the same values.
func sameKeys(a, b []ssa.Value) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !sameValue(a[i], b[i]) && !sameLocalField(a[i], b[i]) {
			return false
		}
	}
	return true
}

// holdsForWriting reports whether held includes the lock key in write
// mode.
func holdsForWriting(held []heldLock, key pathKey) bool {
	return slices.ContainsFunc(held, func(hl heldLock) bool { return hl.key == key && hl.mode == Write })
}

// sameLocalField reports whether a and b load the same field path from
// one local object the function fills (spec := &jobSpec{}; load(key,
// spec)) and never stores that path of itself.
func sameLocalField(a, b ssa.Value) bool {
	pa, ok := sameFieldLoads(a, b)
	if !ok {
		return false
	}
	alloc, ok := pa.Root.(*ssa.Alloc)
	return ok && !hasOwnLock(alloc.Type()) && !storesAt(alloc.Parent(), pa)
}

// sameFieldLoads returns the access path a and b both load, when they are
// loads of one field path (not of the root itself).
func sameFieldLoads(a, b ssa.Value) (Path, bool) {
	x, ok1 := a.(*ssa.UnOp)
	y, ok2 := b.(*ssa.UnOp)
	if !ok1 || !ok2 || x.Op != token.MUL || y.Op != token.MUL {
		return Path{}, false
	}
	pa, pb := pathOf(x.X), pathOf(y.X)
	return pa, pa.Root != nil && pa.Steps != "" && pa.key() == pb.key()
}

// storesAt reports whether fn stores at the access path p.
func storesAt(fn *ssa.Function, p Path) bool {
	for _, blk := range fn.Blocks {
		for _, instr := range blk.Instrs {
			if st, ok := instr.(*ssa.Store); ok && pathOf(st.Addr).key() == p.key() {
				return true
			}
		}
	}
	return false
}

// reachableAvoiding reports whether some path from just after from
// reaches to without passing any of the instructions in via.
func reachableAvoiding(from, to ssa.Instruction, via []ssa.Instruction) bool {
	seen := make(map[*ssa.BasicBlock]bool)
	// scan walks b's instructions from i: true if to is reached, and
	// whether the walk went on to b's successors.
	scan := func(b *ssa.BasicBlock, i int) (bool, bool) {
		for ; i < len(b.Instrs); i++ {
			switch instr := b.Instrs[i]; {
			case slices.Contains(via, instr):
				return false, false
			case instr == to:
				return true, false
			}
		}
		return false, true
	}
	fb := from.Block()
	start := slices.Index(fb.Instrs, from) + 1
	var work []*ssa.BasicBlock
	if hit, on := scan(fb, start); hit {
		return true
	} else if on {
		work = append(work, fb.Succs...)
	}
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[b] {
			continue
		}
		seen[b] = true
		hit, on := scan(b, 0)
		if hit {
			return true
		}
		if on {
			work = append(work, b.Succs...)
		}
	}
	return false
}

// keyedFresh reports whether the entry w writes, in its section of h, is
// not picked by anything read in an earlier section of the same lock: w
// sets a field, or a map entry under a known key no such read taints (a
// stale key writes some other entry than the one meant).
func (fs *funcState) keyedFresh(w *writeSite, h heldLock) bool {
	if !w.collection {
		return true
	}
	if !w.keyKnown {
		return false
	}
	stale := false
	for _, v := range w.keyFrom {
		fs.taint[v].each(func(ri int) {
			if a, ok := fs.reads[ri].held.lookup(h.key); ok && !intersects(a.openers, h.openers) {
				stale = true
			}
		})
	}
	return !stale
}

// insertsUnderFreshKey reports whether w adds a map entry under a key
// drawn fresh (a random uuid) where it writes, inline or in a helper of
// the package every map update of which is under such a key.
func (fs *funcState) insertsUnderFreshKey(w *writeSite) bool {
	switch w.kind {
	case writeMapUpdate:
		up, ok := w.instr.(*ssa.MapUpdate)
		return ok && drawn(up.Key)
	case writeCall:
		call, ok := w.instr.(ssa.CallInstruction)
		if !ok || w.inner != writeMapUpdate {
			return false
		}
		if w.keyKnown && slices.ContainsFunc(w.keyMarks, isFreshKeyMark) {
			return true // the helper's key is an id drawn where it adds the entry
		}
		callee := call.Common().StaticCallee()
		if callee == nil || callee.Pkg != fs.fn.Pkg {
			return false
		}
		updates := 0
		for _, b := range callee.Blocks {
			for _, instr := range b.Instrs {
				if up, ok := instr.(*ssa.MapUpdate); ok {
					if !drawn(up.Key) {
						return false
					}
					updates++
				}
			}
		}
		return updates > 0
	}
	return false
}

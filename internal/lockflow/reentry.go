package lockflow

import (
	"go/token"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// A helper that takes a lock its caller already holds: Go's mutexes are
// not reentrant, so the call blocks for ever (sync.RWMutex's RLock under
// its own Lock included). An RLock under an RLock goes through unless a
// writer calls Lock in between: that Lock waits for the first reader,
// and the second RLock waits behind the Lock, so both hang (sync's
// documentation prohibits recursive read locking for this reason). It is
// reported where the package write-locks the same lock somewhere.
//
// Either is reported only where the second acquisition is certain on
// every run of the call:
//
//   - the caller holds the lock on every path to the call (the must-hold
//     state), taken by a Lock or RLock of its own, and neither calls a
//     function nor makes a closure or method value that could release it
//     meanwhile (one that unlocks a lock without taking it);
//   - the helper is a function of the package whose first block takes the
//     lock before any release, itself or in the first block of a function
//     of the package it calls there (up to three helpers deep): every run
//     of the helper takes it;
//   - the lock is a field of an object (or a package variable), not an
//     element of a collection, whose key cannot tell two elements apart.

// Reentry is a call of a helper that takes a lock the caller holds.
type Reentry struct {
	Fn        *ssa.Function
	Call      token.Pos // the helper call
	Held      token.Pos // the caller's Lock or RLock
	Taken     token.Pos // the helper's Lock or RLock
	HeldMode  Mode
	TakenMode Mode
	RWMutex   bool
	// Via: the calls, inside the helper and the helpers it calls, that
	// lead to Taken when the helper does not take the lock itself.
	Via []token.Pos
	// Runner: the lock is held by a function running another that takes
	// it again (iterlock.go): the iterator of a range-over-func loop
	// whose body takes it, or a function calling a callback it was
	// handed. Call is then in the body or callback, and RunnerCall the
	// call that returned the iterator (NoPos when the loop ranges over a
	// function) or that handed over the callback.
	Runner     RunnerKind
	RunnerCall token.Pos
	// HeldSteps: for another package's runner (Held is NoPos), the
	// lock's steps from the receiver of RunnerCall.
	HeldSteps string
	// Locked: the helper only takes the lock around a call of this
	// function with its own arguments (a total that locks and calls
	// totalLocked): the caller holding the lock can call it instead.
	Locked *ssa.Function
	// LockedEntries: for a read lock taken again, the exported functions
	// through which this function and the package's writers run outside
	// calls made with a lock held; the driver drops the finding if every
	// use of them in the module is such a call (lockedentries.go).
	LockedEntries []string

	lock Path // the lock held and taken again
}

// RunnerKind tells a helper's reentry from a body run by an iterator or a
// callback run by the function it was handed to.
type RunnerKind uint8

const (
	RunnerNone RunnerKind = iota
	RunnerIterator
	RunnerCallback
)

// noteReentry records call as a Reentry when it is one.
func (fs *funcState) noteReentry(call *ssa.Call, cs *callSite, s lockState) {
	// Without InstantiateGenerics an instance has no body; its origin
	// takes the same locks of the same parameters.
	callee := origin(call.Call.StaticCallee())
	if callee == nil || callee.Pkg != fs.fn.Pkg || len(callee.Blocks) == 0 || len(s) == 0 {
		return
	}
	for _, t := range fs.e.takesFirst(callee) {
		p, ok := cs.resolveLock(t.rp)
		if !ok || strings.Contains(p.Steps, "[") {
			continue
		}
		held, ok := s.lookup(p.key())
		if !ok || held.claim || held.mode == Read && t.op.mode == Read && !fs.e.writeLockedBeside(p, fs.fn) || len(held.openers) == 0 {
			continue
		}
		opener := fs.flow.acquires[held.openers[0]]
		if opener.helper || opener.claim || fs.releasesElsewhere() {
			continue
		}
		r := Reentry{Fn: fs.fn, Call: call.Pos(), Held: opener.instr.Pos(), Taken: t.op.pos,
			HeldMode: held.mode, TakenMode: t.op.mode, RWMutex: t.op.rwmutex, lock: p}
		for _, v := range t.via {
			r.Via = append(r.Via, v.Pos())
		}
		if len(t.via) == 0 {
			r.Locked = fs.e.lockedVariant(callee)
		}
		fs.reentries = append(fs.reentries, r)
		return
	}
}

// writeLocked reports whether some function of the package takes lock p's
// write lock (p named by its type and field, or its package variable): a
// writer that can wait between a reader's RLock and its recursive one.
func (e *engine) writeLocked(p Path) bool {
	class := lockClass(p)
	if class == "" {
		return false
	}
	if e.writeLockedClasses == nil {
		e.writeLockedClasses = map[string]bool{}
		e.writeLockers = map[string][]*ssa.Function{}
		for _, fn := range e.funcs {
			for _, b := range fn.Blocks {
				for _, instr := range b.Instrs {
					c, ok := instr.(ssa.CallInstruction)
					if !ok {
						continue
					}
					if op, ok := syncLockOp(c.Common()); ok && op.kind == opAcquire && op.mode == Write {
						if k := lockClass(op.path); k != "" {
							e.writeLockedClasses[k] = true
							if !slices.Contains(e.writeLockers[k], fn) {
								e.writeLockers[k] = append(e.writeLockers[k], fn)
							}
						}
					}
				}
			}
		}
	}
	return e.writeLockedClasses[class]
}

// writeLockedBeside reports whether lock p's write lock can be taken (see
// writeLocked) while fn holds its read lock. A test holds it on its own
// goroutine: a writer can only be a goroutine that the test, or the code
// of the package it calls, starts (see testStartsLocker); when none of
// them takes p's write lock, the Locks the test makes itself come before
// or after its read lock, never in between.
func (e *engine) writeLockedBeside(p Path, fn *ssa.Function) bool {
	if !e.writeLocked(p) {
		return false
	}
	top, ok := testRoot(fn)
	return !ok || e.testStartsLocker(top, lockClass(p))
}

// maxReentryDepth bounds how many helpers deep a reentry is followed: a
// helper whose first block calls another helper that takes the lock in
// its own first block takes it too, on every run.
const maxReentryDepth = 3

// firstTake is a lock a function takes on every run before it releases
// any: rp relative to the function's parameters, taken by op, through the
// helper calls in via (outermost first).
type firstTake struct {
	rp  relPath
	op  lockOp
	via []*ssa.Call
}

// takenFirst returns the locks fn takes in its first block, in order,
// directly or in the first blocks of the package's functions it calls
// there, up to maxReentryDepth deep; and whether a release (or a call of
// a function that releases a lock it did not take) ends the list: what
// follows may be taken after the caller's lock was dropped.
func takenFirst(fn *ssa.Function, depth int) (taken []firstTake, stopped bool) {
	for _, instr := range fn.Blocks[0].Instrs {
		c, ok := instr.(*ssa.Call)
		if !ok {
			continue
		}
		if op, ok := syncLockOp(c.Common()); ok {
			if op.kind == opRelease {
				return taken, true // it drops a lock first: the caller's, perhaps
			}
			if rp, ok := toRel(fn, op.path); ok {
				taken = append(taken, firstTake{rp: rp, op: op})
			}
			continue
		}
		inner, ics := calleeOf(fn.Pkg, c)
		if inner == nil || inner == fn || len(inner.Blocks) == 0 {
			continue
		}
		if unlocksCallersLock(inner) {
			return taken, true
		}
		if depth >= maxReentryDepth {
			continue
		}
		sub, stop := takenFirst(inner, depth+1)
		for _, t := range sub {
			p, ok := ics.resolveLock(t.rp)
			if !ok {
				continue
			}
			if rp, ok := toRel(fn, p); ok {
				taken = append(taken, firstTake{rp: rp, op: t.op, via: append([]*ssa.Call{c}, t.via...)})
			}
		}
		if stop {
			return taken, true
		}
	}
	return taken, false
}

// releasesElsewhere reports whether fn calls a function of the package
// that unlocks a lock without taking it, or makes a closure or method
// value that does: the caller's lock may be released there, which the
// must-hold state does not see.
func (fs *funcState) releasesElsewhere() bool {
	if fs.unlockHelper != nil {
		return *fs.unlockHelper
	}
	found := false
	for _, b := range fs.fn.Blocks {
		for _, instr := range b.Instrs {
			switch x := instr.(type) {
			case ssa.CallInstruction:
				if callee := origin(x.Common().StaticCallee()); callee != nil && callee.Pkg == fs.fn.Pkg && unlocksCallersLock(callee) {
					found = true
				}
			case *ssa.MakeClosure:
				// A closure or method value (mu.Unlock handed to a
				// sync.Once) may run anywhere it is passed.
				if f, ok := x.Fn.(*ssa.Function); ok && unlocksCallersLock(f) {
					found = true
				}
			}
		}
	}
	fs.unlockHelper = &found
	return found
}

// unlocksCallersLock reports whether fn releases a lock it never takes.
func unlocksCallersLock(fn *ssa.Function) bool {
	taken := map[pathKey]bool{}
	var released []pathKey
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			c, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			if op, ok := syncLockOp(c.Common()); ok {
				if op.kind == opAcquire {
					taken[op.path.key()] = true
				} else {
					released = append(released, op.path.key())
				}
			}
		}
	}
	for _, k := range released {
		if !taken[k] {
			return true
		}
	}
	return false
}

// lockedVariant returns the function fn wraps in its lock: fn takes a
// lock, calls it with fn's own parameters in order, releases the lock
// (deferred or after the call) and returns what it returned, doing
// nothing else; and it takes no lock itself. Nil when fn is no such
// wrapper.
func (e *engine) lockedVariant(fn *ssa.Function) *ssa.Function {
	var inner *ssa.Call
	for _, b := range fn.Blocks {
		if b == fn.Recover {
			continue
		}
		for _, instr := range b.Instrs {
			switch x := instr.(type) {
			case *ssa.Call:
				if _, ok := syncLockOp(x.Common()); ok {
					continue
				}
				if inner != nil {
					return nil
				}
				inner = x
			case *ssa.Defer:
				if op, ok := syncLockOp(x.Common()); !ok || op.kind != opRelease {
					return nil
				}
			case *ssa.Return:
				if !returnsCall(x, inner) {
					return nil
				}
			case *ssa.FieldAddr, *ssa.Extract, *ssa.RunDefers, *ssa.DebugRef:
			case *ssa.Alloc:
				// The result's slot a function with a defer gets (for a
				// recover to return from), where the builder makes one.
				if x.Heap {
					return nil
				}
			case *ssa.Store:
				if a, ok := x.Addr.(*ssa.Alloc); !ok || a.Heap {
					return nil
				}
			case *ssa.UnOp:
				if x.Op != token.MUL {
					return nil
				}
			default:
				return nil
			}
		}
	}
	if inner == nil || inner.Call.IsInvoke() {
		return nil
	}
	g := origin(inner.Call.StaticCallee())
	if g == nil || g == fn || g.Pkg != fn.Pkg || g.Parent() != nil || len(g.Blocks) == 0 ||
		len(inner.Call.Args) != len(fn.Params) || g.Signature.Recv() == nil != (fn.Signature.Recv() == nil) {
		return nil
	}
	for i, a := range inner.Call.Args {
		if a != fn.Params[i] {
			return nil
		}
	}
	if sum := e.summaryOf(g); sum != nil && len(sum.acquires) > 0 {
		return nil
	}
	for _, b := range g.Blocks {
		for _, instr := range b.Instrs {
			if c, ok := instr.(ssa.CallInstruction); ok {
				if op, ok := syncLockOp(c.Common()); ok && op.kind == opAcquire {
					return nil
				}
			}
		}
	}
	return g
}

// throughSlot returns, for a load of a result's slot (a function with a
// defer keeps its results in locals), the one value stored there; else v.
func throughSlot(v ssa.Value) ssa.Value {
	load, ok := v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return v
	}
	slot, ok := load.X.(*ssa.Alloc)
	if !ok || slot.Heap || slot.Referrers() == nil {
		return v
	}
	var stored ssa.Value
	for _, r := range *slot.Referrers() {
		if st, ok := r.(*ssa.Store); ok && st.Addr == slot {
			if stored != nil {
				return v
			}
			stored = st.Val
		}
	}
	if stored == nil {
		return v
	}
	return stored
}

// returnsCall reports whether ret returns exactly what call returned.
func returnsCall(ret *ssa.Return, call *ssa.Call) bool {
	if call == nil {
		return false
	}
	n := call.Call.Signature().Results().Len()
	if len(ret.Results) != n {
		return false
	}
	if n == 1 {
		return throughSlot(ret.Results[0]) == call
	}
	for i, r := range ret.Results {
		x, ok := throughSlot(r).(*ssa.Extract)
		if !ok || x.Tuple != call || x.Index != i {
			return false
		}
	}
	return true
}

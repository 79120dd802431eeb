package lockflow

import (
	"go/token"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// A helper that takes a lock its caller already holds: Go's mutexes are
// not reentrant, so the call blocks for ever (sync.RWMutex's RLock under
// its own Lock included; only an RLock under an RLock may go through,
// and is left alone). It is reported only where it is certain on every
// run of the call:
//
//   - the caller holds the lock on every path to the call (the must-hold
//     state), taken by a Lock or RLock of its own, and neither calls a
//     function nor makes a closure or method value that could release it
//     meanwhile (one that unlocks a lock without taking it);
//   - the helper is a function of the package whose first block takes the
//     lock, before any release of it: every run of the helper takes it;
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
}

// noteReentry records call as a Reentry when it is one.
func (fs *funcState) noteReentry(call *ssa.Call, cs *callSite, s lockState) {
	callee := call.Call.StaticCallee()
	if callee == nil || callee.Pkg != fs.fn.Pkg || len(callee.Blocks) == 0 || len(s) == 0 {
		return
	}
	for _, instr := range callee.Blocks[0].Instrs {
		c, ok := instr.(*ssa.Call)
		if !ok {
			continue
		}
		op, ok := syncLockOp(c.Common())
		if !ok {
			continue
		}
		if op.kind == opRelease {
			return // it drops a lock first: the caller's, perhaps
		}
		rp, ok := toRel(callee, op.path)
		if !ok {
			continue
		}
		p, ok := cs.resolveLock(rp)
		if !ok || strings.Contains(p.Steps, "[") {
			continue
		}
		held, ok := s.lookup(p.key())
		if !ok || held.claim || held.mode == Read && op.mode == Read || len(held.openers) == 0 {
			continue
		}
		opener := fs.flow.acquires[held.openers[0]]
		if opener.helper || opener.claim || fs.releasesElsewhere() {
			continue
		}
		fs.reentries = append(fs.reentries, Reentry{Fn: fs.fn, Call: call.Pos(), Held: opener.instr.Pos(), Taken: c.Pos(),
			HeldMode: held.mode, TakenMode: op.mode, RWMutex: op.rwmutex})
		return
	}
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
				if callee := x.Common().StaticCallee(); callee != nil && callee.Pkg == fs.fn.Pkg && unlocksCallersLock(callee) {
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

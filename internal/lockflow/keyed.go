package lockflow

import (
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// Keyed locks: a value whose Lock(key) and Unlock(key) serialise the
// callers that name one key (moby's locker.Locker, a map of mutexes
// behind two methods, k8s's keymutex with LockKey and UnlockKey). They
// are not sections of the engine (nothing says which state a key
// guards), but a call made holding one, with that key among its
// arguments, is made with a lock held: for the call structure it counts
// as a locked call, as one under a sync lock does.

// keyedLockCall reports whether c takes (acquire) or releases a keyed
// lock: a method Lock (or LockKey) with parameters, whose type also has
// Unlock (UnlockKey) with the same parameters, not package sync's. It
// returns the locker and the key (the first argument).
func keyedLockCall(c *ssa.CallCommon) (locker, key ssa.Value, acquire, ok bool) {
	var name string
	var sig *types.Signature
	var args []ssa.Value
	switch {
	case c.IsInvoke():
		name, sig, locker, args = c.Method.Name(), c.Signature(), c.Value, c.Args
	default:
		callee := c.StaticCallee()
		if callee == nil || callee.Signature.Recv() == nil || len(c.Args) == 0 {
			return nil, nil, false, false
		}
		if obj := callee.Object(); obj == nil || obj.Pkg() == nil || obj.Pkg().Path() == "sync" {
			return nil, nil, false, false
		}
		name, sig, locker, args = callee.Name(), callee.Signature, c.Args[0], c.Args[1:]
	}
	var pair string
	switch name {
	case "Lock", "LockKey":
		acquire, pair = true, "Unl"+name[1:]
	case "Unlock", "UnlockKey":
		pair = "L" + name[3:]
	default:
		return nil, nil, false, false
	}
	if sig.Params().Len() == 0 || len(args) == 0 {
		return nil, nil, false, false
	}
	other, _, _ := types.LookupFieldOrMethod(locker.Type(), true, nil, pair)
	f, isFunc := other.(*types.Func)
	if !isFunc || !types.Identical(f.Signature().Params(), sig.Params()) {
		return nil, nil, false, false
	}
	return locker, args[0], acquire, true
}

// noteKeyedLocks marks the calls fn makes holding a keyed lock taken,
// and not yet released, on one of the call's arguments.
func (e *engine) noteKeyedLocks(fn *ssa.Function) {
	type keyedOp struct {
		instr       ssa.Instruction
		locker, key ssa.Value
	}
	var acquires, releases []keyedOp
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			c, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			if _, deferred := instr.(*ssa.Defer); deferred {
				continue // released at return: held for the rest of the function
			}
			if locker, key, acquire, ok := keyedLockCall(c.Common()); ok {
				op := keyedOp{instr, locker, key}
				if acquire {
					acquires = append(acquires, op)
				} else {
					releases = append(releases, op)
				}
			}
		}
	}
	if len(acquires) == 0 {
		return
	}
	same := func(a, b keyedOp) bool {
		return a.key == b.key && pathOf(a.locker).key() == pathOf(b.locker).key()
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if slices.ContainsFunc(acquires, func(a keyedOp) bool {
				return runsBefore(a.instr, instr) && !slices.ContainsFunc(releases, func(u keyedOp) bool {
					return same(a, u) && runsBefore(a.instr, u.instr) && runsBefore(u.instr, instr)
				})
			}) {
				// Whatever the key: enough to say that a writer of the
				// state holds some lock besides its own (othersWriteLocked).
				e.underKeyedLock[instr] = true
			}
			call, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			if callee, _ := calleeOf(e.pkg, call); callee == nil {
				continue
			}
			for _, a := range acquires {
				if !slices.Contains(call.Call.Args, a.key) || !runsBefore(a.instr, instr) {
					continue
				}
				released := slices.ContainsFunc(releases, func(u keyedOp) bool {
					return same(a, u) && runsBefore(a.instr, u.instr) && runsBefore(u.instr, instr)
				})
				if !released {
					e.lockedCalls[instr] = true
				}
			}
		}
	}
}

// runsBefore reports whether a runs before b on every path to b.
func runsBefore(a, b ssa.Instruction) bool {
	if a.Block() != b.Block() {
		return a.Block().Dominates(b.Block())
	}
	for _, instr := range a.Block().Instrs {
		switch instr {
		case a:
			return true
		case b:
			return false
		}
	}
	return false
}

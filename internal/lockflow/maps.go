package lockflow

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
)

// This file exposes the parts of the engine that passes working on maps of
// locks (mutexmapdelete) need: the package's functions, which calls take
// or release a lock, and which locks are held at an instruction.

// Functions lists every function of pkg with a body, including function
// literals in package-level var initialisers.
func Functions(pass *analysis.Pass, pkg *ssa.Package) []*ssa.Function {
	if pkg == nil {
		return nil
	}
	return packageFunctions(pass, pkg)
}

// LockCall classifies a direct call of a sync.Mutex or sync.RWMutex lock
// method: the lock's access path, and whether it acquires (Lock, RLock)
// or releases (Unlock, RUnlock). Calls through a sync.Locker are not
// direct: c.Args[0] is the lock's operand.
func LockCall(c *ssa.CallCommon) (lock Path, acquire bool, ok bool) {
	if c.IsInvoke() {
		return Path{}, false, false
	}
	op, ok := syncLockOp(c)
	if !ok {
		return Path{}, false, false
	}
	return op.path, op.kind == opAcquire, true
}

// HeldLocks answers which locks are held on every path to an instruction
// of one function, from its direct Lock and Unlock calls (a deferred
// Unlock keeps the lock held to the end of the function).
type HeldLocks struct {
	flow *lockFlow
}

// NewHeldLocks runs the held-lock flow of fn.
func NewHeldLocks(fn *ssa.Function) *HeldLocks {
	ops := make(map[ssa.Instruction]lockOp)
	var acqs []acquire
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			if op, ok := syncLockOp(call.Common()); ok {
				ops[instr] = op
				if op.kind == opAcquire {
					acqs = append(acqs, acquire{instr: instr, path: op.path, mode: op.mode})
				}
			}
		}
	}
	return &HeldLocks{flow: computeHeld(fn, ops, acqs, nil)}
}

// At returns the locks held just before instr, or nil when its block is
// unreachable.
func (h *HeldLocks) At(instr ssa.Instruction) []Path {
	held := h.AtWithMode(instr)
	if held == nil {
		return nil
	}
	out := make([]Path, 0, len(held))
	for _, l := range held {
		out = append(out, l.Path)
	}
	return out
}

// HeldPath is a lock held at a program point and the mode it is held in.
type HeldPath struct {
	Path Path
	Mode Mode
}

// AtWithMode is At with each lock's mode.
func (h *HeldLocks) AtWithMode(instr ssa.Instruction) []HeldPath {
	b := instr.Block()
	if b == nil {
		return nil
	}
	s, ok := h.flow.entry[b]
	if !ok {
		return nil
	}
	for _, in := range b.Instrs {
		if in == instr {
			break
		}
		s = h.flow.step(s, in)
	}
	out := make([]HeldPath, 0, len(s))
	for _, l := range s {
		out = append(out, HeldPath{l.path, l.mode})
	}
	return out
}

// SamePath reports whether two paths of one function name the same lock:
// the same key, or the same steps from two assertions of one value to one
// type (m.(*sync.Mutex).Lock(), then defer m.(*sync.Mutex).Unlock()).
func SamePath(a, b Path) bool {
	if a.key() == b.key() {
		return true
	}
	x, ok1 := a.Root.(*ssa.TypeAssert)
	y, ok2 := b.Root.(*ssa.TypeAssert)
	return ok1 && ok2 && a.Steps == b.Steps && (x.X == y.X || loadsOfOneCell(x.X, y.X)) && types.Identical(x.AssertedType, y.AssertedType)
}

// loadsOfOneCell reports whether a and b load a variable stored once (a
// local that a closure captures lives in such a cell).
func loadsOfOneCell(a, b ssa.Value) bool {
	x, ok1 := a.(*ssa.UnOp)
	y, ok2 := b.(*ssa.UnOp)
	if !ok1 || !ok2 || x.Op != token.MUL || y.Op != token.MUL || x.X != y.X {
		return false
	}
	cell, ok := x.X.(*ssa.Alloc)
	if !ok {
		return false
	}
	stores := 0
	for _, ref := range *cell.Referrers() {
		if st, ok := ref.(*ssa.Store); ok && st.Addr == cell {
			stores++
		}
	}
	return stores == 1
}

// RunsAfter reports whether every execution of later follows one of first
// (first not in a loop).
func RunsAfter(first, later ssa.Instruction) bool { return runsAfter(first, later) }

package lockflow

import (
	"go/token"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// A constructor often keeps the object it builds in a variable its own
// closures capture: a hook stored in the object (h.dispatch = func() {
// h.jobs <- k }), the body of a range-over-func loop that fills it. Go
// then keeps the variable in a cell of its own, and the lock's path starts
// at the cell, not at the object; unpublishedAt, which follows the object,
// gives up there. newInCapturedVar follows the cell instead.

// newInCapturedVar reports whether g's lock belongs to an object that the
// function (or, for a loop body or a function literal run in place, the
// function around it) has just made and keeps in a variable closures
// capture, and that no other goroutine can reach before the gap's second
// section:
//   - the variable is assigned once, with the new object, before the gap;
//   - every closure capturing it runs in place, or is kept in a field of
//     the object itself that nothing loads before the gap;
//   - no use of the variable lets the object out before the gap: its
//     fields are read and written, its locks taken, methods called on it
//     (that keep it local) or on its fields, the address of a field other
//     than the lock's handed on; returning or storing the object comes
//     later, in the function that made it.
func (fs *funcState) newInCapturedVar(g *Gap) bool {
	rest, ok := strings.CutPrefix(g.Lock.Steps, "*;")
	if !ok || g.BOpenInst == nil || !ownFields(rest) {
		return false
	}
	lockField, _, _ := strings.Cut(rest, ";")
	// Climb from the gap's function to the one declaring the variable;
	// at becomes the instruction there during which the gap happens.
	v, fn, at := g.Lock.Root, fs.fn, g.BOpenInst
	var cell *ssa.Alloc
	for depth := 0; cell == nil; depth++ {
		if a, ok := v.(*ssa.Alloc); ok && a.Parent() == fn && a.Heap {
			cell = a
			break
		}
		fv, ok := v.(*ssa.FreeVar)
		if !ok || fv.Parent() != fn || depth > 4 {
			return false
		}
		call := runInPlace(fn)
		mc := closureOf(fn)
		i := slices.Index(fn.FreeVars, fv)
		if call == nil || mc == nil || i < 0 || i >= len(mc.Bindings) {
			return false
		}
		v, fn, at = mc.Bindings[i], fn.Parent(), call
	}
	var assign *ssa.Store
	for _, r := range *cell.Referrers() {
		if st, ok := r.(*ssa.Store); ok && st.Addr == ssa.Value(cell) {
			if assign != nil {
				return false
			}
			assign = st
		}
	}
	if assign == nil || !runsBefore(assign, at) {
		return false
	}
	obj, ok := assign.Val.(*ssa.Alloc)
	if !ok || obj.Parent() != fn {
		return false
	}
	c := &cellUses{top: fn, at: at, obj: obj, assign: assign, lockField: lockField, hooks: map[int]bool{}}
	// The hooks kept in the object are found first: loading one of them
	// anywhere lets the object out with it.
	c.findHooks(cell, fn)
	return c.varStaysIn(cell, fn) && c.objectStaysIn(obj, fn)
}

// runInPlace returns the call that runs the closure fn where it is made:
// the iterator call of a range-over-func loop body, or the call of a
// function literal written in place. Nil otherwise.
func runInPlace(fn *ssa.Function) *ssa.Call {
	mc := closureOf(fn)
	if mc == nil {
		return nil
	}
	if call := yieldCall(mc, fn); call != nil {
		return call
	}
	refs := *mc.Referrers()
	if len(refs) != 1 {
		return nil
	}
	call, ok := refs[0].(*ssa.Call)
	if !ok || call.Call.Value != ssa.Value(mc) {
		return nil
	}
	return call
}

// cellUses follows the uses of a variable holding a new object, for
// newInCapturedVar.
type cellUses struct {
	top       *ssa.Function // declares the variable
	at        ssa.Instruction
	obj       *ssa.Alloc
	assign    *ssa.Store
	lockField string
	hooks     map[int]bool // fields of the object holding closures over it
}

// findHooks notes the fields of the object that closures capturing the
// variable x (in f, and in closures run in place) are stored into.
func (c *cellUses) findHooks(x ssa.Value, f *ssa.Function) {
	for _, r := range *x.Referrers() {
		mc, ok := r.(*ssa.MakeClosure)
		if !ok {
			continue
		}
		if fa := c.keptInObject(mc); fa != nil {
			c.hooks[fa.Field] = true
			continue
		}
		inner, ok := mc.Fn.(*ssa.Function)
		if !ok || runInPlace(inner) == nil {
			continue
		}
		for i, b := range mc.Bindings {
			if b == x {
				c.findHooks(inner.FreeVars[i], inner)
			}
		}
	}
}

// keptInObject returns the field address of the object that the closure
// mc is stored into, when that is its only use.
func (c *cellUses) keptInObject(mc *ssa.MakeClosure) *ssa.FieldAddr {
	refs := *mc.Referrers()
	if len(refs) != 1 {
		return nil
	}
	st, ok := refs[0].(*ssa.Store)
	if !ok || st.Val != ssa.Value(mc) {
		return nil
	}
	fa, ok := st.Addr.(*ssa.FieldAddr)
	if !ok {
		return nil
	}
	if fa.X == ssa.Value(c.obj) {
		return fa
	}
	load, ok := fa.X.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return nil
	}
	for _, b := range mc.Bindings {
		if load.X == b {
			return fa
		}
	}
	return nil
}

// varStaysIn reports whether the variable x (the cell in the declaring
// function, a free variable in a closure) is only assigned the object,
// loaded, and captured by closures run in place or kept in the object,
// and whether what the loads give stays in too.
func (c *cellUses) varStaysIn(x ssa.Value, f *ssa.Function) bool {
	for _, r := range *x.Referrers() {
		switch r := r.(type) {
		case *ssa.DebugRef:
		case *ssa.Store:
			if r != c.assign {
				return false
			}
		case *ssa.UnOp:
			if r.Op != token.MUL || !c.objectStaysIn(r, f) {
				return false
			}
		case *ssa.MakeClosure:
			if c.keptInObject(r) != nil {
				continue // runs only once someone has the object
			}
			inner, ok := r.Fn.(*ssa.Function)
			if !ok || runInPlace(inner) == nil {
				return false
			}
			for i, b := range r.Bindings {
				if b == x && !c.varStaysIn(inner.FreeVars[i], inner) {
					return false
				}
			}
		default:
			return false
		}
	}
	return true
}

// objectStaysIn reports whether v, the object, is used in f only in ways
// that let no one else reach it before the gap: in the declaring
// function, a use that lets it out must come after the gap; in a closure
// run in place, none may.
func (c *cellUses) objectStaysIn(v ssa.Value, f *ssa.Function) bool {
	later := func(p ssa.Instruction) bool { return f == c.top && cannotPrecede(p, c.at) }
	for _, r := range *v.Referrers() {
		ok := true
		switch x := r.(type) {
		case *ssa.DebugRef:
		case *ssa.FieldAddr:
			ok = c.fieldStaysIn(x, 0)
		case *ssa.UnOp:
			ok = x.Op == token.MUL // a copy of the value
		case *ssa.Store:
			ok = x == c.assign || x.Addr == v && x.Val != v
		case *ssa.Call:
			if _, lock := syncLockOp(x.Common()); lock {
				break
			}
			ok = refStaysLocal(v, x, 0)
		default:
			ok = false
		}
		if !ok && !later(r) {
			return false
		}
	}
	return true
}

// fieldStaysIn reports whether the address of a field of the object is
// used only to load and store the field, lock it, or hand it to code that
// keeps it local; a field other than the one the lock lives in may be
// handed to any call but a go statement. A load of a hook field lets the
// object out with the closure.
func (c *cellUses) fieldStaysIn(fa *ssa.FieldAddr, depth int) bool {
	name := ""
	if v := fieldVar(fa.X.Type(), fa.Field); v != nil {
		name = "." + v.Name()
	}
	for _, r := range *fa.Referrers() {
		switch x := r.(type) {
		case *ssa.DebugRef:
		case *ssa.FieldAddr:
			if depth > 3 || !c.fieldStaysIn(x, depth+1) {
				return false
			}
		case *ssa.UnOp:
			if x.Op != token.MUL || depth == 0 && c.hooks[fa.Field] {
				return false
			}
		case *ssa.Store:
			if x.Val == ssa.Value(fa) {
				return false
			}
		case ssa.CallInstruction:
			if _, ok := x.(*ssa.Go); ok {
				return false
			}
			if depth == 0 && name == c.lockField {
				// The lock's own field: locked, or handed only to code of
				// the package that keeps it local (a method starting a
				// goroutine over it would share it).
				if _, lock := syncLockOp(x.Common()); !lock && !refStaysLocal(fa, x, 0) {
					return false
				}
			}
		default:
			return false
		}
	}
	return true
}

// cannotPrecede reports whether p can never run before at in one call of
// their function: at cannot be reached from p.
func cannotPrecede(p, at ssa.Instruction) bool {
	pb, ab := p.Block(), at.Block()
	if pb != ab {
		return !reaches(pb, ab)
	}
	for _, s := range pb.Succs {
		if reaches(s, pb) {
			return false
		}
	}
	return !runsBefore(p, at)
}

// fixedCell reports whether v is a captured variable whose cell is
// assigned once, before the first closure capturing it is made, and never
// again, by that function or any closure: the receiver a method's
// goroutine or callback uses, for one. Loading it reads no shared state
// (the cell always holds the same value), so it is no read a decision can
// take stale; the state reached through it still is.
func (e *engine) fixedCell(v ssa.Value) bool {
	fv, ok := v.(*ssa.FreeVar)
	if !ok {
		return false
	}
	if fixed, ok := e.fixedCells[fv]; ok {
		return fixed
	}
	fixed := false
	cell := boundValue(fv)
	for depth := 0; depth < 8; depth++ {
		outer, ok := cell.(*ssa.FreeVar)
		if !ok {
			break
		}
		cell = boundValue(outer)
	}
	if a, ok := cell.(*ssa.Alloc); ok && a.Heap {
		fixed = assignedOnceFirst(a)
	}
	if e.fixedCells == nil {
		e.fixedCells = make(map[*ssa.FreeVar]bool)
	}
	e.fixedCells[fv] = fixed
	return fixed
}

// assignedOnceFirst reports whether the cell a is stored once, before
// every closure capturing it is made, and only loaded otherwise.
func assignedOnceFirst(a *ssa.Alloc) bool {
	init, closures, ok := soleStore(a)
	if !ok {
		return false
	}
	for _, mc := range closures {
		ib, mb := init.Block(), mc.Block()
		if ib == mb && slices.Index(ib.Instrs, ssa.Instruction(init)) > slices.Index(mb.Instrs, ssa.Instruction(mc)) ||
			ib != mb && !ib.Dominates(mb) {
			return false
		}
	}
	return true
}

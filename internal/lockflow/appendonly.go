package lockflow

import (
	"go/token"

	"golang.org/x/tools/go/ssa"
)

// An append-only list. Workers pick an element of a shared list in one
// section (a random directory to create a child in), build a new element
// from it outside, and append the new one in a later section:
//
//	mu.RLock(); d := dirs[rand.Intn(len(dirs))]; mu.RUnlock()
//	child := d + "/x"
//	mu.Lock(); dirs = append(dirs, child); mu.Unlock()
//
// The append re-reads the list in its own section, so what others
// appended in between is kept; and when the variable is only ever
// appended to, and its elements only read, the element picked is still
// in the list and still what it was. Nothing the write relies on can
// have gone stale. Only a local variable (one the workers' closures
// capture) is followed: every use of it can be seen.

// appendsToAppendOnly reports whether read r is an element of the local
// slice variable that w appends to, re-read in w's own section, and the
// variable is append-only.
func (fs *funcState) appendsToAppendOnly(r *readSite, w *writeSite, h heldLock) bool {
	st, ok := w.instr.(*ssa.Store)
	if !ok {
		return false
	}
	switch st.Addr.(type) {
	case *ssa.Alloc, *ssa.FreeVar:
	default:
		return false
	}
	call, ok := st.Val.(*ssa.Call)
	if !ok || !isAppend(call) {
		return false
	}
	base, ok := call.Call.Args[0].(*ssa.UnOp)
	if !ok || base.Op != token.MUL || base.X != st.Addr {
		return false
	}
	bi, ok := fs.readIdx[base]
	if !ok || !sameSection(fs.reads[bi].held, w.held, h.key) {
		return false
	}
	if !elemOfCell(r.instr, st.Addr) {
		return false
	}
	cell, parent := variableOrigin(st.Addr)
	return cell != nil && appendOnly(cell, parent)
}

// elemOfCell reports whether instr reads an element of the slice the
// variable cell holds (a load of &(*cell)[i], or (*cell)[i]), or the
// slice itself only to pick elements of it (picksOnly).
func elemOfCell(instr ssa.Instruction, cell ssa.Value) bool {
	var x ssa.Value
	switch v := instr.(type) {
	case *ssa.UnOp:
		if v.Op == token.MUL && v.X == cell {
			return picksOnly(v)
		}
		ia, ok := v.X.(*ssa.IndexAddr)
		if !ok || v.Op != token.MUL {
			return false
		}
		x = ia.X
	case *ssa.Index:
		x = v.X
	default:
		return false
	}
	ld, ok := x.(*ssa.UnOp)
	return ok && ld.Op == token.MUL && ld.X == cell
}

// variableOrigin follows a captured variable to the local variable it
// is (the Alloc of the function declaring it, and that function).
func variableOrigin(v ssa.Value) (*ssa.Alloc, *ssa.Function) {
	for depth := 0; depth < 8; depth++ {
		switch x := v.(type) {
		case *ssa.Alloc:
			if !x.Heap {
				return nil, nil // (captured variables live on the heap)
			}
			return x, x.Parent()
		case *ssa.FreeVar:
			if v = boundValue(x); v == nil {
				return nil, nil
			}
		default:
			return nil, nil
		}
	}
	return nil, nil
}

// appendOnly reports whether the local variable a of fn is, after the
// stores that come before any closure capturing it is made, only ever
// assigned an append to its own current value, and its elements and
// value are otherwise only read (indexed, ranged over, measured): no
// element is overwritten, no slice of it handed on, the variable's
// address taken nowhere else.
func appendOnly(a *ssa.Alloc, fn *ssa.Function) bool {
	var makes []*ssa.MakeClosure
	for _, r := range *a.Referrers() {
		if mc, ok := r.(*ssa.MakeClosure); ok {
			makes = append(makes, mc)
		}
	}
	initial := func(st *ssa.Store) bool {
		if inLoop(st.Block()) {
			return false
		}
		for _, mc := range makes {
			if !runsAfter(st, mc) {
				return false
			}
		}
		return true
	}
	var cell func(v ssa.Value, top bool, depth int) bool
	cell = func(v ssa.Value, top bool, depth int) bool {
		if depth > 8 {
			return false
		}
		for _, r := range *v.Referrers() {
			switch x := r.(type) {
			case *ssa.DebugRef:
			case *ssa.Store:
				if x.Addr != v {
					return false
				}
				if top && initial(x) {
					continue
				}
				call, ok := x.Val.(*ssa.Call)
				if !ok || !isAppend(call) {
					return false
				}
				if ld, ok := call.Call.Args[0].(*ssa.UnOp); !ok || ld.Op != token.MUL || ld.X != v {
					return false
				}
			case *ssa.UnOp:
				if x.Op != token.MUL || !onlyRead(x) {
					return false
				}
			case *ssa.MakeClosure:
				fn, ok := x.Fn.(*ssa.Function)
				if !ok {
					return false
				}
				for i, b := range x.Bindings {
					if b == v && (i >= len(fn.FreeVars) || !cell(fn.FreeVars[i], false, depth+1)) {
						return false
					}
				}
			default:
				return false
			}
		}
		return true
	}
	return cell(a, true, 0)
}

// onlyRead reports whether the slice value v (the variable's value) is
// only read: indexed and loaded, measured, or the base of an append
// stored back into the variable (checked by the caller's Store case).
func onlyRead(v ssa.Value) bool {
	for _, r := range *v.Referrers() {
		switch x := r.(type) {
		case *ssa.DebugRef, *ssa.Index:
		case *ssa.IndexAddr:
			for _, u := range *x.Referrers() {
				if ld, ok := u.(*ssa.UnOp); !ok || ld.Op != token.MUL {
					if _, dbg := u.(*ssa.DebugRef); !dbg {
						return false
					}
				}
			}
		case *ssa.Call:
			b, ok := x.Call.Value.(*ssa.Builtin)
			if !ok {
				return false
			}
			switch b.Name() {
			case "len", "cap":
			case "append":
				if x.Call.Args[0] != v || !storedBack(x) {
					return false
				}
			default:
				return false
			}
		default:
			return false
		}
	}
	return true
}

// storedBack reports whether the append's result is only stored into the
// variable its base was loaded from.
func storedBack(call *ssa.Call) bool {
	ld, ok := call.Call.Args[0].(*ssa.UnOp)
	if !ok {
		return false
	}
	for _, r := range *call.Referrers() {
		st, ok := r.(*ssa.Store)
		if !ok || st.Addr != ld.X || st.Val != ssa.Value(call) {
			return false
		}
	}
	return len(*call.Referrers()) > 0
}

// picksOnly reports whether the slice value v is only indexed, its length
// used only to compute indexes (through arithmetic and calls such as
// rand.Intn): a length tested against a limit decides more than which
// element.
func picksOnly(v ssa.Value) bool {
	for _, r := range *v.Referrers() {
		switch x := r.(type) {
		case *ssa.DebugRef, *ssa.Index, *ssa.IndexAddr:
			if ix, ok := x.(*ssa.Index); ok && ix.Index == v {
				return false
			}
		case *ssa.Call:
			b, ok := x.Call.Value.(*ssa.Builtin)
			if !ok || b.Name() != "len" || !onlyIndex(x, 0) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// onlyIndex reports whether the integer v flows only into the index of
// an element read, through arithmetic, conversions and calls.
func onlyIndex(v ssa.Value, depth int) bool {
	if depth > 4 {
		return false
	}
	refs := *v.Referrers()
	if len(refs) == 0 {
		return false
	}
	for _, r := range refs {
		switch x := r.(type) {
		case *ssa.DebugRef:
		case *ssa.IndexAddr:
			if x.Index != v {
				return false
			}
		case *ssa.Index:
			if x.Index != v {
				return false
			}
		case *ssa.BinOp:
			switch x.Op {
			case token.ADD, token.SUB, token.MUL, token.QUO, token.REM:
				if !onlyIndex(x, depth+1) {
					return false
				}
			default:
				return false
			}
		case *ssa.Convert:
			if !onlyIndex(x, depth+1) {
				return false
			}
		case *ssa.Call:
			if _, builtin := x.Call.Value.(*ssa.Builtin); builtin || !onlyIndex(x, depth+1) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

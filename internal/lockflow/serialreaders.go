package lockflow

import (
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// An RLock taken again under its own RLock hangs only when a writer's Lock
// comes in between. A producer's batch builder shows where none can: the
// method flushing the batches holds the read lock and calls a helper that
// takes it again, and the only Lock is in the method adding a message,
// which also bumps the builder's message count with no lock held, a count
// the flushing method reads with no lock held. Two such calls on one
// builder at once would be a data race, so callers already run them one
// after the other (the producer's event loop does), and no Lock of this
// builder's can come between the two RLocks. This is the premise
// oneAtATime rests on (owner.go): the program is free of data races.

// ownAccess: the fields of a method's receiver (by their steps from it) it
// reads and writes with no lock held.
type ownAccess struct {
	reads, writes map[string]bool
}

// noteUnlockedOwn records, for a method, the fields of its receiver it
// accesses with no lock held.
func (fs *funcState) noteUnlockedOwn() {
	fn := fs.fn
	if fn.Signature.Recv() == nil || len(fn.Params) == 0 {
		return
	}
	recv := fn.Params[0]
	var a *ownAccess
	note := func(m func(*ownAccess) map[string]bool, steps string) {
		if a == nil {
			a = &ownAccess{reads: map[string]bool{}, writes: map[string]bool{}}
		}
		m(a)[steps] = true
	}
	for _, r := range fs.reads {
		if r.instr != nil && len(r.held) == 0 && r.loc.Root == ssa.Value(recv) && ownFields(r.loc.Steps) {
			note(func(a *ownAccess) map[string]bool { return a.reads }, r.loc.Steps)
		}
	}
	for _, w := range fs.writes {
		if len(w.held) == 0 && w.kind == writeStore && w.loc.Root == ssa.Value(recv) && ownFields(w.loc.Steps) {
			note(func(a *ownAccess) map[string]bool { return a.writes }, w.loc.Steps)
		}
	}
	if a == nil {
		return
	}
	if fs.e.unlockedOwn == nil {
		fs.e.unlockedOwn = make(map[*ssa.Function]*ownAccess)
	}
	fs.e.unlockedOwn[fn] = a
}

// raceUnlocked reports whether methods f and g of one type access a field
// of their receiver with no lock held, one of them writing it: on one
// object they cannot run at once in a program free of data races.
func (e *engine) raceUnlocked(f, g *ssa.Function) bool {
	a, b := e.unlockedOwn[f], e.unlockedOwn[g]
	if a == nil || b == nil {
		return false
	}
	for s := range a.writes {
		if b.reads[s] || b.writes[s] {
			return true
		}
	}
	for s := range b.writes {
		if a.reads[s] {
			return true
		}
	}
	return false
}

// readersSerialised reports whether r, an RLock taken again under the
// caller's RLock, can have no Lock in between: every function that takes
// the lock for writing never runs, or is a method of the lock's owner,
// or is called only by such methods on their own receiver, and each of
// these methods races r's function on a field of the owner (see
// raceUnlocked); and the lock belongs to one owner alone (ownerAlone).
func (e *engine) readersSerialised(r Reentry) bool {
	if r.HeldMode != Read || r.TakenMode != Read || r.Runner != RunnerNone || r.Fn.Signature.Recv() == nil ||
		len(r.Fn.Params) == 0 || r.lock.Root != ssa.Value(r.Fn.Params[0]) {
		return false
	}
	owner := deref(r.Fn.Params[0].Type())
	holders := pathStructs(r.lock)
	class := lockClass(r.lock)
	// kind tells a method of the owner, of a holder on the way to the
	// lock, or of another type (which keeps a holder by value: its lock
	// is another object's).
	const ofOwner, ofHolder, ofOther = 0, 1, 2
	kind := func(fn *ssa.Function) int {
		t := deref(fn.Signature.Recv().Type())
		switch {
		case types.Identical(t, owner):
			return ofOwner
		case slices.ContainsFunc(holders, func(h types.Type) bool { return types.Identical(t, h) }):
			return ofHolder
		}
		return ofOther
	}
	e.writeLocked(r.lock) // fills writeLockers
	lockers := e.writeLockers[class]
	if len(lockers) == 0 {
		return false
	}
	for _, w := range lockers {
		if e.neverRuns(w) {
			continue
		}
		if !locksOwnFields(w, class) {
			return false
		}
		switch kind(w) {
		case ofOther:
			continue
		case ofOwner:
			if !e.raceUnlocked(w, r.Fn) {
				return false
			}
			continue
		}
		if e.escapes[w] || len(e.started[w]) > 0 || e.callableOutside(w) || len(e.calls[w]) == 0 {
			return false
		}
		for _, c := range e.calls[w] {
			// The holder locked is one its caller keeps by value.
			call, ok := c.instr.(ssa.CallInstruction)
			if c.callback || !ok || c.caller.Signature.Recv() == nil || len(c.caller.Params) == 0 || len(call.Common().Args) == 0 {
				return false
			}
			if p := pathOf(call.Common().Args[0]); p.Root != ssa.Value(c.caller.Params[0]) || !ownFields(p.Steps) {
				return false
			}
			switch kind(c.caller) {
			case ofHolder:
				return false
			case ofOwner:
				if !e.raceUnlocked(c.caller, r.Fn) {
					return false
				}
			}
		}
	}
	// Last: it reads the whole package.
	return e.ownerAlone(r.lock)
}

// locksOwnFields reports whether fn is a method and every write lock of
// class it takes is reached from its receiver through fields it keeps by
// value (the mutex itself may be behind the last one).
func locksOwnFields(fn *ssa.Function, class string) bool {
	if fn.Signature.Recv() == nil || len(fn.Params) == 0 {
		return false
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			c, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			op, ok := syncLockOp(c.Common())
			if !ok || op.kind != opAcquire || op.mode != Write || lockClass(op.path) != class {
				continue
			}
			if op.path.Root != ssa.Value(fn.Params[0]) || !ownFields(strings.TrimSuffix(op.path.Steps, "*;")) {
				return false
			}
		}
	}
	return true
}

// pathStructs returns the struct types a path from a receiver passes
// through after the receiver's own: the holders of the lock.
func pathStructs(p Path) []types.Type {
	var out []types.Type
	t := deref(p.Root.Type())
	for _, s := range strings.Split(p.Steps, ";") {
		name, ok := strings.CutPrefix(s, ".")
		if !ok {
			continue
		}
		st, ok := deref(t).Underlying().(*types.Struct)
		if !ok {
			break
		}
		for j := range st.NumFields() {
			if st.Field(j).Name() == name {
				t = st.Field(j).Type()
				if _, isStruct := deref(t).Underlying().(*types.Struct); isStruct {
					out = append(out, deref(t))
				}
			}
		}
	}
	return out
}

// ownerAlone reports whether lock p, a path from a method's receiver
// through fields of it, is that object's alone: no other object of the
// package's can hold the same lock. Each field on the way that points to
// the next part is unexported and only ever set to a new allocation, and
// no struct on the way is copied out of memory (a copy would share what
// its pointer fields point to).
func (e *engine) ownerAlone(p Path) bool {
	t := p.Root.Type()
	var structs []types.Type
	steps := strings.Split(strings.TrimSuffix(p.Steps, ";"), ";")
	for i, s := range steps {
		name, ok := strings.CutPrefix(s, ".")
		if !ok {
			if s == "*" && i > 0 {
				continue // checked with the field before it
			}
			return false
		}
		st, ok := deref(t).Underlying().(*types.Struct)
		if !ok {
			return false
		}
		n, ok := types.Unalias(deref(t)).(*types.Named)
		if !ok || n.Obj().Exported() || n.Obj().Pkg() != e.pkg.Pkg {
			return false
		}
		structs = append(structs, n)
		var field *types.Var
		for j := range st.NumFields() {
			if st.Field(j).Name() == name {
				field = st.Field(j)
			}
		}
		if field == nil {
			return false
		}
		if i+1 < len(steps) && steps[i+1] == "*" && (field.Exported() || !e.onlyFreshStores(field)) {
			return false
		}
		t = field.Type()
	}
	return !e.copiedOut(structs)
}

// onlyFreshStores reports whether every store to field v in the package
// stores a new allocation.
func (e *engine) onlyFreshStores(v *types.Var) bool {
	for _, fn := range e.funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				st, ok := instr.(*ssa.Store)
				if !ok {
					continue
				}
				if fa, ok := st.Addr.(*ssa.FieldAddr); ok && fieldVar(fa.X.Type(), fa.Field) == v && !isFresh(st.Val) {
					return false
				}
			}
		}
	}
	return true
}

// copiedOut reports whether some function of the package gets a value of
// one of the struct types ts other than by building it: loaded from
// memory other than its own new variable, looked up in a map, received
// by a range over one.
func (e *engine) copiedOut(ts []types.Type) bool {
	is := func(t types.Type) bool {
		for _, s := range ts {
			if types.Identical(t, s) {
				return true
			}
		}
		return false
	}
	for _, fn := range e.funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				switch x := instr.(type) {
				case *ssa.UnOp:
					if a, ok := x.X.(*ssa.Alloc); x.Op == token.MUL && is(x.Type()) && (!ok || a.Parent() != fn) {
						return true
					}
				case *ssa.Lookup:
					if is(x.Type()) {
						return true
					}
				case *ssa.Extract:
					if is(x.Type()) {
						return true
					}
				}
			}
		}
	}
	return false
}

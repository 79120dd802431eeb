package lockflow

import (
	"fmt"
	"go/constant"
	"go/token"
	"go/types"
	"os"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// A latch re-checks for a state it does not read. Some objects carry a
// flag (done, completed, closed, or a connection set once to a new
// object and tested against nil) that is only ever set, never cleared,
// and that every change of some state of theirs sets in the same section
// (the task's status moves to cancelled or completed, and completed is
// set). A section that goes on only while the flag is still unset knows
// that state is as it was when the flag was last unset: whatever A read
// of it, the write in B runs only if nobody has changed it since. B
// re-checked, without reading the state again.

// latchRechecked reports whether w runs only where a test in its section
// finds a latch unset, one that guards what read ri read: the latch is a
// flag of the object holding it.
func (fs *funcState) latchRechecked(ri int, w *writeSite, k pathKey) bool {
	r := &fs.reads[ri]
	state := fieldClass(r.loc)
	if state == "" {
		return false
	}
	found := false
	fs.eachSectionGate(w, k, func(d branch) {
		if found {
			return
		}
		cond := ifCond(d.block)
		if cond == nil {
			return
		}
		flag, negated := negations(cond)
		if x, isNil := nilTest(flag); isNil != 0 {
			// A field set once to a non-nil value: x != nil is a set
			// flag, x == nil an unset one.
			flag, negated = x, negated != (isNil == token.EQL)
		}
		ld, ok := flag.(*ssa.UnOp)
		if !ok || ld.Op != token.MUL {
			return
		}
		ri2, ok := fs.readIdx[ld]
		if !ok {
			return
		}
		r2 := &fs.reads[ri2]
		if !sameSection(r2.held, w.held, k) || fs.staleAddress(r2, k, w.held) {
			return
		}
		// The side where the flag is unset (false, or true of its negation).
		unset := 1
		if negated {
			unset = 0
		}
		if d.succ != unset || !holds(r2.loc, r.loc) || !fs.e.ownFlag(r2.loc) {
			return
		}
		found = fs.e.latches(fieldClass(r2.loc), stateFields(r2.loc, r.loc))
		if debugEnabled {
			fmt.Fprintf(os.Stderr, "  latch %s for %s: %v\n", fieldClass(r2.loc), state, found)
		}
	})
	return found
}

// nilTest returns, for a comparison of a value with nil, the value and
// the comparison (token.EQL or token.NEQ); 0 for any other condition.
func nilTest(cond ssa.Value) (ssa.Value, token.Token) {
	b, ok := cond.(*ssa.BinOp)
	if !ok || b.Op != token.EQL && b.Op != token.NEQ {
		return nil, 0
	}
	switch {
	case isNil(b.Y):
		return b.X, b.Op
	case isNil(b.X):
		return b.Y, b.Op
	}
	return nil, 0
}

// setsLatch reports whether st stores a value that sets a latch: true
// into a boolean flag, into a field of another type a value that cannot
// be nil (a new object, map, channel or closure). Anything else may
// clear it.
func setsLatch(st *ssa.Store) bool {
	if b, isBasic := st.Val.Type().Underlying().(*types.Basic); isBasic && b.Info()&types.IsBoolean != 0 {
		c, isConst := st.Val.(*ssa.Const)
		return isConst && c.Value != nil && c.Value.Kind() == constant.Bool && constant.BoolVal(c.Value)
	}
	switch st.Val.(type) {
	case *ssa.Alloc, *ssa.MakeMap, *ssa.MakeChan, *ssa.MakeClosure, *ssa.Function:
		return true
	}
	return false
}

// holds reports whether the object owning flag's field also holds loc:
// the same root, and loc's steps start with the flag's, its last aside.
func holds(flag, loc Path) bool {
	if flag.Root != loc.Root || flag.Steps == "" {
		return false
	}
	steps := flag.Steps[:len(flag.Steps)-1]
	owner := steps[:strings.LastIndexByte(steps, ';')+1]
	return len(loc.Steps) > len(owner) && loc.Steps[:len(owner)] == owner
}

// ownFlag reports whether the flag at the end of p is an unexported
// field of a type of the package: every store to it is the package's.
func (e *engine) ownFlag(p Path) bool {
	own := false
	walkPath(p, func(holder types.Type, f *types.Var, isLast bool) {
		if isLast {
			own = !f.Exported() && f.Pkg() == e.pkg.Pkg
		}
	})
	return own
}

// stateFields names the fields on the way from the flag's object to
// loc, loc's own last: storing any of them changes what loc reads (the
// task's status, or the task it hangs off).
func stateFields(flag, loc Path) string {
	skip := strings.Count(flag.Steps, ";") - 1
	var names []string
	walkPath(loc, func(holder types.Type, f *types.Var, isLast bool) {
		names = append(names, types.TypeString(holder, nil)+"."+f.Name())
	})
	if skip > len(names) {
		return ""
	}
	return strings.Join(names[min(skip, len(names)):], " ")
}

// latches reports, for the package, whether the boolean field flag is
// only ever set to true (false only in an object just made), and every
// store to one of the state's fields (space-separated), outside objects
// just made, is followed on every way out of its function by a store of
// true to the flag of the same object. A store of a whole struct holding
// one of them through a pointer counts against (not one filling a slice
// element: a copy handed out).
func (e *engine) latches(flag, state string) bool {
	if flag == "" || state == "" {
		return false
	}
	if e.latchMemo == nil {
		e.latchMemo = make(map[[2]string]bool)
	}
	return memoised(e.latchMemo, [2]string{flag, state}, e.latchesNow)
}

func (e *engine) latchesNow(fields [2]string) bool {
	flag := fields[0]
	states := map[string]bool{}
	holders := map[string]bool{}
	for _, f := range strings.Fields(fields[1]) {
		if f == flag {
			return false
		}
		states[f] = true
		holders[f[:strings.LastIndexByte(f, '.')]] = true
	}
	sets := 0
	for _, fn := range e.funcs {
		var ipdom []int
		for _, b := range fn.Blocks {
			for i, instr := range b.Instrs {
				st, ok := instr.(*ssa.Store)
				if !ok {
					continue
				}
				fa, ok := st.Addr.(*ssa.FieldAddr)
				if !ok {
					if _, element := st.Addr.(*ssa.IndexAddr); !element && holders[holderName(st.Addr.Type())] && !madeHere(st.Addr) {
						if debugEnabled {
							fmt.Fprintf(os.Stderr, "  latch: object replaced at %s\n", e.pass.Fset.Position(st.Pos()))
						}
						return false // the whole object replaced
					}
					continue
				}
				class := storeClass(fa)
				switch {
				case class == flag:
					if setsLatch(st) {
						sets++
						continue
					}
					if !madeHere(fa.X) {
						if debugEnabled {
							fmt.Fprintf(os.Stderr, "  latch: %s cleared at %s\n", flag, e.pass.Fset.Position(st.Pos()))
						}
						return false
					}
				case states[class]:
					if madeHere(fa.X) {
						continue
					}
					if ipdom == nil {
						ipdom = postDominators(fn, nil)
					}
					if !latchedAfter(fn, b, i, fa, flag, ipdom) {
						if debugEnabled {
							fmt.Fprintf(os.Stderr, "  latch: %s not set after %s\n", flag, e.pass.Fset.Position(st.Pos()))
						}
						return false
					}
				}
			}
		}
	}
	return sets > 0
}

// latchedAfter reports whether a store of true to the flag of the object
// whose state is stored at b.Instrs[i] (through fa) follows it in its
// block or in a block post-dominating it.
func latchedAfter(fn *ssa.Function, b *ssa.BasicBlock, i int, fa *ssa.FieldAddr, flag string, ipdom []int) bool {
	owner := ownerOf(fa, flag)
	if owner == nil {
		return false
	}
	setsFlag := func(instr ssa.Instruction) bool {
		st, ok := instr.(*ssa.Store)
		if !ok {
			return false
		}
		f, ok := st.Addr.(*ssa.FieldAddr)
		return ok && sameObject(f.X, owner) && storeClass(f) == flag && setsLatch(st)
	}
	for _, instr := range b.Instrs[i+1:] {
		if setsFlag(instr) {
			return true
		}
	}
	for p := ipdom[b.Index]; p < len(fn.Blocks); p = ipdom[p] {
		for _, instr := range fn.Blocks[p].Instrs {
			if setsFlag(instr) {
				return true
			}
		}
		if ipdom[p] == p {
			break
		}
	}
	return false
}

// ownerOf walks up from the field address fa, through the fields and
// pointers it was reached by, to the value of the type declaring flag.
func ownerOf(fa *ssa.FieldAddr, flag string) ssa.Value {
	var v ssa.Value = fa.X
	for range 8 {
		if holderName(v.Type())+"."+flagName(flag) == flag {
			return v
		}
		switch x := v.(type) {
		case *ssa.FieldAddr:
			v = x.X
		case *ssa.UnOp:
			if x.Op != token.MUL {
				return nil
			}
			v = x.X
		default:
			return nil
		}
	}
	return nil
}

func flagName(class string) string { return class[strings.LastIndexByte(class, '.')+1:] }

// storeClass names the field a store goes to as fieldClass names it.
func storeClass(fa *ssa.FieldAddr) string {
	f := fieldVar(fa.X.Type(), fa.Field)
	if f == nil {
		return ""
	}
	return holderName(fa.X.Type()) + "." + f.Name()
}

// holderName names the struct type t is, or points to.
func holderName(t types.Type) string {
	return types.TypeString(deref(t), nil)
}

// sameObject reports whether a and b are the same object: the same
// value, or loads of one local variable set once (a parameter a closure
// captures).
func sameObject(a, b ssa.Value) bool {
	if a == b {
		return true
	}
	la, ok1 := a.(*ssa.UnOp)
	lb, ok2 := b.(*ssa.UnOp)
	if !ok1 || !ok2 || la.Op != token.MUL || lb.Op != token.MUL || la.X != lb.X {
		return false
	}
	v, ok := la.X.(*ssa.Alloc)
	if !ok {
		return false
	}
	stores := 0
	for _, ref := range *v.Referrers() {
		if st, ok := ref.(*ssa.Store); ok && st.Addr == v {
			stores++
		}
	}
	return stores <= 1
}

// madeHere reports whether v is an object its function allocates.
func madeHere(v ssa.Value) bool {
	_, ok := v.(*ssa.Alloc)
	return ok
}

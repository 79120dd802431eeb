package lockflow

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// Test drivers often keep their steps in a table: a type the tests
// declare with func-typed fields (a target's start and step functions),
// filled with the tests' own functions and called by the driver loop.
// Such a function is not handed to anyone: it is called wherever the
// field is called. When every use of the field is a store of a function
// of the test files, a call of the value loaded, or a test of it against
// nil, each function stored there counts as called at each of those
// calls (and not as a value that escapes), so the tests' call structure
// (onTestGoroutine) follows the driver through its table.

// testFieldFuncs is what fieldFuncs finds: the functions stored in each
// such field, the stores (and the closures made only for them) that do
// not let a function escape, and the calls of each field.
type testFieldFuncs struct {
	stored map[*types.Var][]*ssa.Function
	quiet  map[ssa.Instruction]bool
	calls  map[ssa.Instruction]*types.Var
}

// fieldFuncs finds the func-typed fields of types the tests declare that
// are only filled with functions of the test files, called, or compared
// with nil.
func fieldFuncs(funcs []*ssa.Function) *testFieldFuncs {
	out := &testFieldFuncs{
		stored: make(map[*types.Var][]*ssa.Function),
		quiet:  make(map[ssa.Instruction]bool),
		calls:  make(map[ssa.Instruction]*types.Var),
	}
	bad := make(map[*types.Var]bool)
	for _, fn := range funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				fa, ok := instr.(*ssa.FieldAddr)
				if !ok {
					continue
				}
				f := fieldVar(fa.X.Type(), fa.Field)
				if f == nil || bad[f] {
					continue
				}
				if _, isFunc := f.Type().Underlying().(*types.Signature); !isFunc {
					continue
				}
				if test, ok := declaredInTest(fn.Prog, fa.X.Type()); !ok || !test {
					continue
				}
				if !out.noteUses(fa, f) {
					bad[f] = true
				}
			}
		}
	}
	for f := range bad {
		delete(out.stored, f)
	}
	for instr, f := range out.calls {
		if bad[f] {
			delete(out.calls, instr)
		}
	}
	for instr := range out.quiet {
		var f *types.Var
		switch x := instr.(type) {
		case *ssa.Store:
			f = fieldVar(x.Addr.(*ssa.FieldAddr).X.Type(), x.Addr.(*ssa.FieldAddr).Field)
		case *ssa.MakeClosure:
			st := (*x.Referrers())[0].(*ssa.Store)
			f = fieldVar(st.Addr.(*ssa.FieldAddr).X.Type(), st.Addr.(*ssa.FieldAddr).Field)
		}
		if bad[f] {
			delete(out.quiet, instr)
		}
	}
	return out
}

// noteUses records the uses of one address of field f, and reports
// whether they are all stores of test functions, calls and nil tests.
func (t *testFieldFuncs) noteUses(fa *ssa.FieldAddr, f *types.Var) bool {
	for _, r := range *fa.Referrers() {
		switch x := r.(type) {
		case *ssa.DebugRef:
		case *ssa.Store:
			if x.Addr != fa {
				return false
			}
			fn, closure := storedFunc(x.Val)
			switch {
			case fn != nil:
				t.stored[f] = append(t.stored[f], fn)
				t.quiet[x] = true
				if closure != nil {
					t.quiet[closure] = true
				}
			case isNil(x.Val):
			default:
				return false
			}
		case *ssa.UnOp:
			if x.Op != token.MUL {
				return false
			}
			for _, u := range *x.Referrers() {
				switch y := u.(type) {
				case *ssa.DebugRef:
				case *ssa.Call:
					if y.Call.Value != x || containsValue(y.Call.Args, x) {
						return false
					}
					t.calls[y] = f
				case *ssa.BinOp:
					if y.Op != token.EQL && y.Op != token.NEQ || !isNil(y.X) && !isNil(y.Y) {
						return false
					}
				default:
					return false
				}
			}
		default:
			return false
		}
	}
	return true
}

// storedFunc returns the function of the test files that v is (itself, or
// a closure made only to be stored here).
func storedFunc(v ssa.Value) (*ssa.Function, *ssa.MakeClosure) {
	switch x := v.(type) {
	case *ssa.Function:
		if x.Synthetic == "" && inTestFile(x) {
			return x, nil
		}
	case *ssa.MakeClosure:
		fn, ok := x.Fn.(*ssa.Function)
		if ok && fn.Synthetic == "" && inTestFile(fn) && len(*x.Referrers()) == 1 {
			return fn, x
		}
	}
	return nil, nil
}

func containsValue(vs []ssa.Value, v ssa.Value) bool {
	for _, x := range vs {
		if x == v {
			return true
		}
	}
	return false
}

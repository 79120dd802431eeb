package lockflow

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// Code run by a sync.Once. A package that fills its tables lazily runs
// the filling function through once.Do(initTables), and every function
// that reads or changes the tables calls once.Do(initTables) first. Do
// runs the function once, and no call of Do returns before it has
// finished: a gap inside the function cannot be raced by a writer that
// runs only after a Do of the same Once has returned (nor by the
// function itself, which runs once). The function is reached from the
// Do calls through static calls and through func-typed package
// variables that only init functions set to a function of the package
// (an OS-specific loader installed by an init function) and that are
// otherwise only called.

// onceCtx is what the package's Once calls tell: for each function run
// inside a Once's Do, that Once (a package variable), and the static
// uses of each function.
type onceCtx struct {
	// doArgs: the Once each function is handed to Do of (nil where it is
	// handed to two, or used as a value otherwise).
	doArgs map[*ssa.Function]*ssa.Global
	// varCalls: calls through func-typed package variables set only at
	// init, by the function they call.
	varCalls map[*ssa.Function][]staticCall
	// other: functions used as values other than by those two ways (a
	// function value stored, passed, returned).
	other map[*ssa.Function]bool
	// resets: Onces assigned outside init and the tests.
	resets map[*ssa.Global]bool
	memo   map[*ssa.Function]*ssa.Global
	after  map[onceKey]bool
}

type onceKey struct {
	fn   *ssa.Function
	once *ssa.Global
}

func (e *engine) onceContext() *onceCtx {
	if e.once != nil {
		return e.once
	}
	oc := &onceCtx{
		doArgs:   make(map[*ssa.Function]*ssa.Global),
		varCalls: make(map[*ssa.Function][]staticCall),
		other:    make(map[*ssa.Function]bool),
		resets:   make(map[*ssa.Global]bool),
		memo:     make(map[*ssa.Function]*ssa.Global),
		after:    make(map[onceKey]bool),
	}
	e.once = oc
	// Func-typed package variables: the functions init functions store
	// in them, and whether anything else stores or uses them.
	varFuncs := make(map[*ssa.Global][]*ssa.Function)
	badVar := make(map[*ssa.Global]bool)
	var varLoads []*ssa.UnOp
	quiet := make(map[ssa.Instruction]bool)
	for _, fn := range e.funcs {
		if inTestFile(fn) {
			continue
		}
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				switch x := instr.(type) {
				case *ssa.Store:
					g, ok := x.Addr.(*ssa.Global)
					if !ok {
						continue
					}
					if isOnce(g) && !isInitFunc(e.pkg, fn) {
						oc.resets[g] = true
					}
					if _, isFunc := deref(g.Type()).Underlying().(*types.Signature); !isFunc {
						continue
					}
					f, ok := x.Val.(*ssa.Function)
					if !ok || !isInitFunc(e.pkg, fn) || f.Pkg != e.pkg {
						badVar[g] = true
						continue
					}
					varFuncs[g] = append(varFuncs[g], f)
					quiet[x] = true
				case *ssa.UnOp:
					g, ok := x.X.(*ssa.Global)
					if !ok || x.Op != token.MUL {
						continue
					}
					if _, isFunc := deref(g.Type()).Underlying().(*types.Signature); !isFunc {
						continue
					}
					for _, r := range *x.Referrers() {
						if b, ok := r.(*ssa.BinOp); ok && (b.Op == token.EQL || b.Op == token.NEQ) && (isNil(b.X) || isNil(b.Y)) {
							continue // installed or not
						}
						if c, ok := r.(*ssa.Call); !ok || c.Call.Value != x || containsValue(c.Call.Args, x) {
							badVar[g] = true
						}
					}
					varLoads = append(varLoads, x)
				}
			}
		}
	}
	for _, ld := range varLoads {
		g := ld.X.(*ssa.Global)
		if badVar[g] {
			continue
		}
		for _, r := range *ld.Referrers() {
			if _, ok := r.(*ssa.Call); !ok {
				continue
			}
			for _, f := range varFuncs[g] {
				oc.varCalls[f] = append(oc.varCalls[f], staticCall{caller: ld.Parent(), instr: r})
			}
		}
	}
	// Function values: handed to a Once's Do, stored in such a variable
	// at init, or anything else.
	var ops []*ssa.Value
	bad := make(map[*ssa.Function]bool)
	for _, fn := range e.funcs {
		if inTestFile(fn) {
			continue
		}
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				var callee ssa.Value
				var once *ssa.Global
				if c, ok := instr.(ssa.CallInstruction); ok {
					callee = c.Common().Value
					if _, isCall := instr.(*ssa.Call); isCall {
						once = onceDo(c.Common())
					}
				}
				for i, o := range instr.Operands(ops[:0]) {
					f, ok := (*o).(*ssa.Function)
					if !ok || f.Pkg != e.pkg {
						continue
					}
					switch {
					case i == 0 && *o == callee:
						if _, isCall := instr.(*ssa.Call); !isCall {
							oc.other[f] = true // started or deferred
						}
					case once != nil && *o == instr.(ssa.CallInstruction).Common().Args[1]:
						if prev, ok := oc.doArgs[f]; ok && prev != once {
							bad[f] = true
						}
						oc.doArgs[f] = once
					case quiet[instr]:
					default:
						oc.other[f] = true
					}
				}
			}
		}
	}
	for f := range bad {
		delete(oc.doArgs, f)
	}
	return oc
}

// isOnce reports whether g is a package variable of type sync.Once.
func isOnce(g *ssa.Global) bool {
	n, ok := types.Unalias(deref(g.Type())).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "sync" && n.Obj().Name() == "Once"
}

// onceDo returns the package variable of type sync.Once whose Do c
// calls, with a function of the package (not a closure), or nil.
func onceDo(c *ssa.CallCommon) *ssa.Global {
	if !isOnceDo(c) {
		return nil
	}
	g, ok := c.Args[0].(*ssa.Global)
	if !ok || !isOnce(g) {
		return nil
	}
	if _, ok := c.Args[1].(*ssa.Function); !ok {
		return nil
	}
	return g
}

// isOnceDo reports whether c calls (*sync.Once).Do.
func isOnceDo(c *ssa.CallCommon) bool {
	callee := c.StaticCallee()
	return callee != nil && callee.Name() == "Do" && callee.Pkg != nil && callee.Pkg.Pkg.Path() == "sync" && len(c.Args) == 2
}

// runsInOnce returns the Once inside whose Do fn alone runs: fn is handed
// only to that Once's Do, or called (statically, or through a package
// variable set at init) only from functions that run inside it.
func (e *engine) runsInOnce(fn *ssa.Function) *ssa.Global {
	oc := e.onceContext()
	if g, ok := oc.memo[fn]; ok {
		return g
	}
	oc.memo[fn] = nil
	g := e.findOnce(fn)
	oc.memo[fn] = g
	return g
}

func (e *engine) findOnce(fn *ssa.Function) *ssa.Global {
	oc := e.once
	if oc.other[fn] || len(e.started[fn]) > 0 || inTestFile(fn) {
		return nil
	}
	if obj := fn.Object(); obj != nil && obj.Exported() {
		return nil
	}
	if g := oc.doArgs[fn]; g != nil {
		if oc.resets[g] || len(e.calls[fn])+len(oc.varCalls[fn]) > 0 {
			return nil
		}
		return g
	}
	if _, handed := oc.doArgs[fn]; handed {
		return nil
	}
	var once *ssa.Global
	calls := append(append([]staticCall(nil), e.calls[fn]...), oc.varCalls[fn]...)
	if len(calls) == 0 {
		return nil
	}
	for _, c := range calls {
		g := e.runsInOnce(c.caller)
		if g == nil || once != nil && g != once {
			return nil
		}
		once = g
	}
	return once
}

// afterOnce reports whether fn runs only inside, or after, a Do of once:
// it runs inside it, or every call of it is inside such a function, or
// follows, in its function, a call of once.Do.
func (e *engine) afterOnce(fn *ssa.Function, once *ssa.Global) bool {
	oc := e.onceContext()
	k := onceKey{fn, once}
	if v, ok := oc.after[k]; ok {
		return v
	}
	oc.after[k] = false
	v := e.findAfterOnce(fn, once)
	oc.after[k] = v
	return v
}

func (e *engine) findAfterOnce(fn *ssa.Function, once *ssa.Global) bool {
	if e.runsInOnce(fn) == once {
		return true
	}
	oc := e.once
	if oc.other[fn] || !e.callsKnown(fn) && len(oc.varCalls[fn]) == 0 {
		return false
	}
	if e.escapes[fn] && len(oc.varCalls[fn]) == 0 {
		return false
	}
	calls := append(append([]staticCall(nil), e.calls[fn]...), oc.varCalls[fn]...)
	for _, c := range calls {
		if c.callback || !doneBefore(c.instr, once) && !e.afterOnce(c.caller, once) {
			return false
		}
	}
	return true
}

// doneBefore reports whether a call of once.Do runs before instr on every
// way to it, in instr's function.
func doneBefore(instr ssa.Instruction, once *ssa.Global) bool {
	for _, b := range instr.Parent().Blocks {
		for _, x := range b.Instrs {
			c, ok := x.(*ssa.Call)
			if !ok || c == instr {
				continue
			}
			if onceDo(c.Common()) == once && runsBefore(c, instr) {
				return true
			}
		}
	}
	return false
}

// underOnce reports whether g's function runs only inside a Do of a Once
// and every writer of what its stale read read runs only inside or after
// a Do of the same Once.
func (e *engine) underOnce(g *Gap) bool {
	once := e.runsInOnce(g.Fn)
	if once == nil || runsGoroutines(g.Fn, nil, nil, nil) {
		return false
	}
	for f, o := range e.once.doArgs {
		if o == once && runsGoroutines(f, nil, nil, nil) {
			return false // what it starts may run beside the callers of Do
		}
	}
	writers, _ := e.stateWriters(g)
	if len(writers) == 0 {
		return false
	}
	for _, w := range writers {
		if !e.afterOnce(w, once) && !e.writesAfterDo(w, writers, once, lockClass(g.Lock)) {
			return false
		}
	}
	return true
}

// writesAfterDo reports whether w writes the state itself, taking the
// gap's lock (class) or calling the state's other writers, and takes
// locks and calls writers only after a call of once.Do (an exported
// setter that calls once.Do first).
func (e *engine) writesAfterDo(w *ssa.Function, writers []*ssa.Function, once *ssa.Global, class string) bool {
	own := false
	for _, b := range w.Blocks {
		for _, instr := range b.Instrs {
			c, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			op, lock := syncLockOp(c.Common())
			callee, _ := calleeOf(e.pkg, c)
			writer := callee != nil && callee != w && slices.Contains(writers, callee)
			if !lock && !isSyncMapCall(instr) && !writer {
				continue
			}
			if !doneBefore(instr, once) {
				return false
			}
			if writer || lock && class != "" && lockClass(op.path) == class {
				own = true
			}
			if isSyncMapCall(instr) && len(c.Common().Args) > 0 && class != "" && lockClass(pathOf(c.Common().Args[0])) == class {
				own = true
			}
		}
	}
	return own
}

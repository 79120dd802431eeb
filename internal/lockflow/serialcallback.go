package lockflow

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"os"
	"slices"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
)

// Callbacks run serially by a helper's own goroutine. A periodic flusher,
// a ticker loop or a watcher often takes a callback, keeps it in the
// object it makes and starts one goroutine for that object, which alone
// calls the callback:
//
//	func Every(d time.Duration, flush func()) *Flusher {
//		f := &Flusher{period: d, flush: flush}
//		go f.loop() // the only code calling f.flush
//		return f
//	}
//
// Each call of Every makes one goroutine calling flush, one call at a
// time. The package declaring such a helper exports a SerialCallback fact
// for it; a package handing it a function at one place, not in a loop,
// has that function (and what only it calls) run on one goroutine per
// object, as telegraf's agent runs an input's Gather (frameworks.go).

const serialCallbackPrefix = "serial callback "

// SerialCallback marks a function that keeps the function parameters
// listed (by index, the receiver not counted) for one goroutine it
// starts, which alone calls them.
type SerialCallback struct {
	Params []int
}

func (*SerialCallback) AFact() {}

func (f *SerialCallback) String() string { return fmt.Sprintf("serial callback %v", f.Params) }

// findSerialCallbacks records the package's functions that run a
// callback parameter on one goroutine of their own, and exports the
// facts.
func (e *engine) findSerialCallbacks() {
	for _, fn := range e.funcs {
		obj, ok := fn.Object().(*types.Func)
		if !ok || fn.Parent() != nil || fn.Blocks == nil {
			continue
		}
		offset := len(fn.Params) - fn.Signature.Params().Len()
		var params []int
		for i, p := range fn.Params[offset:] {
			if _, isFunc := p.Type().Underlying().(*types.Signature); isFunc && e.runsSerially(fn, p) {
				params = append(params, i)
			}
		}
		if len(params) == 0 {
			continue
		}
		if e.serialCallbacks == nil {
			e.serialCallbacks = make(map[*types.Func][]int)
		}
		e.serialCallbacks[obj] = params
		if debugEnabled {
			fmt.Fprintf(os.Stderr, "serial callback %s %v\n", fn, params)
		}
		e.pass.ExportObjectFact(obj, &SerialCallback{Params: params})
	}
}

// mayRunCallbacksSerially reports whether a function of the package
// takes a function parameter and has a go statement: only such a package
// can export a SerialCallback fact, and one that does not touch sync
// needs SSA built for it.
func mayRunCallbacksSerially(pass *analysis.Pass) bool {
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			decl, ok := d.(*ast.FuncDecl)
			if !ok || decl.Body == nil || !slices.ContainsFunc(decl.Type.Params.List, func(p *ast.Field) bool {
				t := pass.TypesInfo.TypeOf(p.Type)
				if t == nil {
					return false // broken code
				}
				_, isFunc := t.Underlying().(*types.Signature)
				return isFunc
			}) {
				continue
			}
			starts := false
			ast.Inspect(decl.Body, func(n ast.Node) bool {
				_, isGo := n.(*ast.GoStmt)
				starts = starts || isGo
				return !starts
			})
			if starts {
				return true
			}
		}
	}
	return false
}

// runsSerially reports whether fn keeps the callback p in an unexported
// field of an object it allocates, starts one goroutine on that object
// (not in a loop), and nothing but that goroutine calls or touches the
// field afterwards.
func (e *engine) runsSerially(fn *ssa.Function, p *ssa.Parameter) bool {
	var field *types.Var
	var obj *ssa.Alloc
	for _, ref := range *p.Referrers() {
		switch r := ref.(type) {
		case *ssa.BinOp: // p == nil
			if r.Op != token.EQL && r.Op != token.NEQ || !isNil(r.X) && !isNil(r.Y) {
				return false
			}
		case *ssa.Store:
			fa, ok := r.Addr.(*ssa.FieldAddr)
			if !ok {
				return false
			}
			a, ok := fa.X.(*ssa.Alloc)
			f := fieldVar(fa.X.Type(), fa.Field)
			if !ok || a.Parent() != fn || f == nil || f.Exported() || field != nil && field != f {
				return false
			}
			field, obj = f, a
		default:
			return false
		}
	}
	if field == nil {
		return false
	}
	var root ssa.Instruction
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			gs := e.asGoStart(instr)
			if gs == nil || !startsOn(gs, obj) {
				continue
			}
			if root != nil || inLoop(b) {
				return false
			}
			root = gs.instr
		}
	}
	if root == nil {
		return false
	}
	// Every other use of the field is a call from the goroutine.
	for _, f := range e.funcs {
		for _, b := range f.Blocks {
			for _, instr := range b.Instrs {
				if fv, ok := instr.(*ssa.Field); ok && fieldVar(fv.X.Type(), fv.Field) == field {
					return false // read from a copy of the object
				}
				fa, ok := instr.(*ssa.FieldAddr)
				if !ok || fieldVar(fa.X.Type(), fa.Field) != field {
					continue
				}
				if f == fn && fa.X == ssa.Value(obj) && storesOnly(fa, p) {
					continue // keeping p
				}
				if w := e.worker(f); w == nil || w.instr != root || !onlyCalledThrough(fa) {
					return false
				}
			}
		}
	}
	return true
}

// storesOnly reports whether the field address fa is used only to store
// v there.
func storesOnly(fa *ssa.FieldAddr, v ssa.Value) bool {
	for _, ref := range *fa.Referrers() {
		if st, ok := ref.(*ssa.Store); !ok || st.Addr != ssa.Value(fa) || st.Val != v {
			return false
		}
	}
	return true
}

// startsOn reports whether the go statement runs a method of obj or a
// closure capturing it.
func startsOn(gs *goStart, obj ssa.Value) bool {
	if slices.Contains(gs.args, obj) {
		return true
	}
	mc, ok := gs.value.(*ssa.MakeClosure)
	return ok && slices.Contains(mc.Bindings, obj)
}

// onlyCalledThrough reports whether the field address fa is only loaded,
// and each value loaded only called (not started, stored or handed on).
func onlyCalledThrough(fa *ssa.FieldAddr) bool {
	for _, ref := range *fa.Referrers() {
		load, ok := ref.(*ssa.UnOp)
		if !ok || load.Op != token.MUL {
			return false
		}
		for _, use := range *load.Referrers() {
			switch c := use.(type) {
			case *ssa.BinOp: // f.flush != nil
				if c.Op != token.EQL && c.Op != token.NEQ {
					return false
				}
			case *ssa.Call:
				if c.Call.Value != ssa.Value(load) || slices.Contains(c.Call.Args, ssa.Value(load)) {
					return false
				}
			default:
				return false
			}
		}
	}
	return true
}

// serialCallbackParam reports whether obj runs its parameter i serially
// on a goroutine of its own: found in this package, or said by its own.
func (e *engine) serialCallbackParam(obj *types.Func, i int) bool {
	obj = obj.Origin()
	if slices.Contains(e.serialCallbacks[obj], i) {
		return true
	}
	var f SerialCallback
	return obj.Pkg() != e.pass.Pkg && e.pass.ImportObjectFact(obj, &f) && slices.Contains(f.Params, i)
}

// serialCallbackContext names the context of fn when its only use is as
// the callback handed, at one place not in a loop, to a function that
// runs it serially: "" otherwise. Nothing else may call fn: not the
// package (a Close flushing once more on the caller's goroutine would run
// beside the helper's), by name or through an interface, nor, when fn is
// exported, other packages.
func (e *engine) serialCallbackContext(fn *ssa.Function) string {
	if len(e.calls[fn]) > 0 || len(e.started[fn]) > 0 || len(e.dispatchingTo(fn)) > 0 {
		return ""
	}
	if obj := fn.Object(); obj != nil && obj.Exported() && !e.hiddenMethod(fn) {
		return "" // other packages may call it too
	}
	uses := e.functionValueUses()[fn]
	if len(uses) != 1 {
		return ""
	}
	use := uses[0]
	var v ssa.Value
	switch u := use.(type) {
	case *ssa.MakeClosure:
		refs := *u.Referrers()
		if len(refs) != 1 {
			return ""
		}
		v, use = u, refs[0]
	case *ssa.Call:
		v = e.fnValueOperand(u, fn)
	}
	call, ok := use.(*ssa.Call)
	if !ok || v == nil || call.Call.Value == v || inLoop(call.Block()) {
		return ""
	}
	callee := origin(call.Call.StaticCallee())
	if callee == nil {
		return ""
	}
	obj, ok := callee.Object().(*types.Func)
	if !ok {
		return ""
	}
	offset := 0
	if callee.Signature.Recv() != nil {
		offset = 1
	}
	for i, a := range call.Call.Args {
		if a == v {
			if i < offset || !e.serialCallbackParam(obj, i-offset) {
				return ""
			}
		}
	}
	return serialCallbackPrefix + fn.String()
}

// fnValueOperand returns the operand of call standing for fn (fn itself,
// or its method value wrapper), or nil.
func (e *engine) fnValueOperand(call *ssa.Call, fn *ssa.Function) ssa.Value {
	for _, a := range call.Call.Args {
		if f, ok := a.(*ssa.Function); ok && (f == fn || e.declaredBehind(f) == fn) {
			return f
		}
	}
	return nil
}

// functionValueUses returns, for each function of the package, the
// instructions using it as a value rather than calling it: a closure or
// method value made of it, or an argument it is passed as. Built once.
func (e *engine) functionValueUses() map[*ssa.Function][]ssa.Instruction {
	if e.valueUses != nil {
		return e.valueUses
	}
	e.valueUses = make(map[*ssa.Function][]ssa.Instruction)
	var ops []*ssa.Value
	for _, fn := range e.funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				call, isCall := instr.(ssa.CallInstruction)
				for i, o := range instr.Operands(ops[:0]) {
					f, ok := (*o).(*ssa.Function)
					if !ok || isCall && i == 0 && call.Common().Value == f {
						continue
					}
					if d := e.declaredBehind(f); d != nil {
						f = d
					}
					e.valueUses[f] = append(e.valueUses[f], instr)
				}
			}
		}
	}
	return e.valueUses
}

package lockflow

import (
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// A refresher seeded by its constructor: the method deciding and writing
// an object's own state runs once on the object a constructor has just
// made, before handing it out, and afterwards only on the one goroutine
// a method of the object starts inside the object's own sync.Once:
//
//	func New() *Agg { a := &Agg{}; a.refresh(); return a }
//	func (a *Agg) Start() { a.startOnce.Do(func() { go func() { for range tick { a.refresh() } }() }) }
//
// Each object's state then has one writer at a time: the constructor's
// run ends before anyone can call Start, and Start starts one goroutine.

// seededThenRefreshed reports whether g is such a gap: g's stale read
// reads its function's receiver's own state, every writer of it in the
// package writes it only through g's function, and g's function is called
// only on a fresh object (a constructor seeding it) or on the receiver a
// once-started goroutine of the object captured, with one such goroutine.
func (e *engine) seededThenRefreshed(g *Gap) bool {
	fn := g.Fn
	if len(fn.Params) == 0 || fn.Signature.Recv() == nil || !e.callsKnown(fn) {
		return false
	}
	if g.ReadLoc.Root != fn.Params[0] || strings.Contains(g.ReadLoc.Steps, "*") {
		return false // not the object's own field
	}
	f := fieldClass(g.ReadLoc)
	if f == "" {
		return false
	}
	var worker *goStart
	for _, c := range e.calls[fn] {
		call, ok := c.instr.(ssa.CallInstruction)
		if !ok || c.callback || inLoop(c.instr.Block()) && !e.runsOnOnceWorker(c.caller) {
			return false
		}
		recv := call.Common().Args[0]
		if e.freshArg(recv, c.caller, c.instr) || e.configuredFresh(recv, c.caller, c.instr) {
			continue // the constructor's seeding run
		}
		gs := e.onceStartedCapturing(c.caller, recv)
		if gs == nil || worker != nil && gs != worker {
			return false
		}
		worker = gs
	}
	if worker == nil {
		return false
	}
	writers, _ := e.stateWriters(g)
	for _, w := range writers {
		if w != fn && !e.writesOnlyThrough(w, f, fn) {
			return false
		}
	}
	return true
}

// runsOnOnceWorker reports whether fn is a closure started by a go
// statement (the worker's loop may call the refresher many times).
func (e *engine) runsOnOnceWorker(fn *ssa.Function) bool {
	return fn.Parent() != nil && len(e.started[fn]) == 1 && len(e.calls[fn]) == 0
}

// onceStartedCapturing returns the go statement that alone starts the
// closure w, when w's argument recv is the receiver of the method that
// starts it, captured, and the go statement runs inside a closure handed
// only to that receiver's own sync.Once: one goroutine per object. (The
// receiver is captured by reference: a cell the method fills with it.)
func (e *engine) onceStartedCapturing(w *ssa.Function, recv ssa.Value) *goStart {
	if !e.runsOnOnceWorker(w) {
		return nil
	}
	// Captured variables are cells: the receiver is loaded from one.
	load, ok := recv.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return nil
	}
	fv, ok := load.X.(*ssa.FreeVar)
	if !ok {
		return nil
	}
	gs := e.started[w][0]
	mc, ok := gs.value.(*ssa.MakeClosure)
	if !ok || mc.Fn != w || inLoop(gs.Block()) {
		return nil
	}
	starter := gs.Parent() // the closure handed to Once.Do
	outerFV, ok := boundValue(fv).(*ssa.FreeVar)
	if !ok || outerFV.Parent() != starter {
		return nil
	}
	method := starter.Parent()
	smc := closureOf(starter)
	if method == nil || method.Signature.Recv() == nil || len(method.Params) == 0 || smc == nil {
		return nil
	}
	if !holdsOnly(boundValue(outerFV), method.Params[0]) || !handedOnlyToOwnOnce(smc, method.Params[0]) {
		return nil
	}
	return gs
}

// handedOnlyToOwnOnce reports whether the closure's only use is as the
// function of a call to Do of a sync.Once field of recv.
func handedOnlyToOwnOnce(mc *ssa.MakeClosure, recv ssa.Value) bool {
	refs := *mc.Referrers()
	if len(refs) != 1 {
		return false
	}
	call, ok := refs[0].(*ssa.Call)
	if !ok {
		return false
	}
	c := call.Common()
	if !isOnceDo(c) || c.Args[1] != mc {
		return false
	}
	fa, ok := c.Args[0].(*ssa.FieldAddr)
	return ok && loadsOrIs(fa.X, recv)
}

// loadsOrIs reports whether v is x, or a load of a cell holding only x.
func loadsOrIs(v, x ssa.Value) bool {
	if v == x {
		return true
	}
	load, ok := v.(*ssa.UnOp)
	return ok && load.Op == token.MUL && holdsOnly(load.X, x)
}

// configuredFresh is freshArg for an object the caller has allocated and
// so far handed only to functional options (opt(obj), opt of a func type
// the package declares), when every function of the package with that
// signature keeps its argument to itself: options set fields.
func (e *engine) configuredFresh(v ssa.Value, caller *ssa.Function, call ssa.Instruction) bool {
	a, ok := v.(*ssa.Alloc)
	if !ok || a.Parent() != caller {
		return false
	}
	for _, ref := range *a.Referrers() {
		if ref == call || runsAfter(call, ref) || refStaysLocal(a, ref, 0) || e.configures(ref, a) {
			continue
		}
		return false
	}
	return true
}

// configures reports whether ref calls a functional option with a alone
// (one returning nothing, or an error).
func (e *engine) configures(ref ssa.Instruction, a ssa.Value) bool {
	c, ok := ref.(*ssa.Call)
	if !ok || c.Call.IsInvoke() || c.Call.StaticCallee() != nil || len(c.Call.Args) != 1 || c.Call.Args[0] != a {
		return false
	}
	named, ok := types.Unalias(c.Call.Value.Type()).(*types.Named)
	if !ok || named.Obj().Pkg() != e.pkg.Pkg {
		return false
	}
	sig, ok := named.Underlying().(*types.Signature)
	if !ok || sig.Results().Len() > 1 || sig.Results().Len() == 1 && !isError(sig.Results().At(0).Type()) {
		return false // an option sets fields, and may say it failed
	}
	for _, fn := range e.funcs {
		if fn.Signature.Recv() != nil || !types.Identical(fn.Signature, sig) {
			continue
		}
		if len(fn.Params) != 1 || !staysLocal(fn.Params[0], 0) {
			return false
		}
	}
	return true
}

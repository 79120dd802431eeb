package lockflow

import (
	"fmt"
	"go/token"
	"go/types"
	"os"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// A worker goroutine that owns some state: every function of the package
// that writes the field a stale read read (or, where the path names no
// field, anything under its lock) runs only on that goroutine, started
// once by one go statement and running a loop, and the lock only
// publishes the state to readers. A read in one of its sections cannot go
// stale before the next: nobody else writes. Writers in other packages
// are not seen; they would have to reach the state, which the package's
// own unexported fields usually prevent. An exported writer counts as
// anyone's. When the worker removes an entry, writers that only add
// missing entries (a lookup that found none, then the insert) do not
// count: they cannot take away or replace the entry it decided on.

// lockClass names a lock by the type that holds it and its field
// ("example.com/store.Store.mu"), so that the same lock reached from two
// functions compares equal; "" when the path does not say.
func lockClass(p Path) string {
	if steps, ok := strings.CutSuffix(p.Steps, "*;"); ok {
		p.Steps = steps // a mutex kept behind a pointer field: named by the field
	}
	return typeField(p, false)
}

// LockName names a lock the same way in every function: by the type that
// holds it and its field, or the package variable; "" when it cannot. A
// mutex kept behind a pointer field is named by that field.
func LockName(p Path) string { return lockClass(p) }

// fieldClass names the last field on a path the same way (the map field
// for an entry of it).
func fieldClass(p Path) string { return typeField(p, true) }

func typeField(p Path, lastField bool) string {
	if p.Root == nil {
		return ""
	}
	if g, ok := p.Root.(*ssa.Global); ok && p.Steps == "" {
		return g.Pkg.Pkg.Path() + "." + g.Name()
	}
	if p.Steps == "" {
		return ""
	}
	last, final := "", false
	if walkPath(p, func(holder types.Type, f *types.Var, isLast bool) {
		last, final = types.TypeString(holder, nil)+"."+f.Name(), isLast
	}) == nil {
		return ""
	}
	if final || lastField {
		return last
	}
	return ""
}

// walkPath follows p's steps from its root's type, calling field for each
// field selected (with the struct type holding it, and whether it is the
// last step), and returns the type of the location; nil when a step does
// not fit the type.
func walkPath(p Path, field func(holder types.Type, f *types.Var, isLast bool)) types.Type {
	if p.Root == nil {
		return nil
	}
	t := p.Root.Type()
	if p.Steps == "" {
		return t
	}
	steps := strings.Split(strings.TrimSuffix(p.Steps, ";"), ";")
	for i, s := range steps {
		switch {
		case s == "*":
			// (A pointer behind a type parameter is dereferenced by the
			// steps that follow.)
			if ptr, ok := t.Underlying().(*types.Pointer); ok {
				t = ptr.Elem()
			}
		case strings.HasPrefix(s, "."):
			holder := deref(t)
			st, ok := typeparamCore(holder).Underlying().(*types.Struct)
			if !ok {
				return nil
			}
			var f *types.Var
			for j := range st.NumFields() {
				if st.Field(j).Name() == s[1:] {
					f = st.Field(j)
				}
			}
			if f == nil {
				return nil
			}
			if field != nil {
				field(holder, f, i == len(steps)-1)
			}
			t = f.Type()
		case strings.HasPrefix(s, "["):
			switch u := deref(t).Underlying().(type) {
			case *types.Map:
				t = u.Elem()
			case *types.Slice:
				t = u.Elem()
			case *types.Array:
				t = u.Elem()
			default:
				return nil
			}
		default:
			return nil
		}
	}
	return t
}

// deref strips pointers off t. A named pointer type may point to itself
// (type P *P, met in encoding/gob's tests), so it gives up after a few.
func deref(t types.Type) types.Type {
	for range 16 {
		p, ok := t.Underlying().(*types.Pointer)
		if !ok {
			return t
		}
		t = p.Elem()
	}
	return t
}

// ownedByWorker reports whether the gap's function and every writer of
// what its stale read read (the field, or else anything under its lock)
// in the package run on one worker goroutine.
func (e *engine) ownedByWorker(g *Gap) bool {
	if lockClass(g.Lock) == "" {
		return false
	}
	writers, insertOnly := e.stateWriters(g)
	root := e.worker(g.Fn)
	if root == nil || !loops(root) {
		return false
	}
	if service, _ := serviceStart(root); service && g.atomicInA {
		// A sweep on a service's goroutine over entries that others
		// refresh atomically (a last-update time): those writers are
		// not the state's writers below. (Workers a go statement starts
		// are not held to this yet: it needs a corpus rerun.)
		return false
	}
	if e.spawnedRepeatedly(root) {
		// One goroutine per object is one owner of each object's state.
		return e.perObjectWorker(root, g, writers, insertOnly)
	}
	if e.heldPrivately(g.Lock, root) {
		// Whoever writes under that lock, other holders of the same
		// type aside, writes on the worker.
		return true
	}
	for _, w := range writers {
		if e.cannotUndo(g, w, insertOnly) {
			continue
		}
		// An exported writer (the holder's own API included) may be
		// called by anyone, on any goroutine.
		if e.worker(w) != root && !e.beforeWorkerOf(w, root) && !e.startsWorkerAfterWrites(w, root, writers) &&
			!e.setUpBeforeWorker(w, root, 0) && !e.writesBeforeStart(w, g, root, writers) && !e.afterWorkerEnds(w, g, root, writers) {
			if debugEnabled {
				fmt.Fprintf(os.Stderr, "  writer %s not on the worker\n", w)
			}
			return false
		}
	}
	return true
}

// cannotUndo reports whether the writer w, running beside the one
// goroutine that takes g's decisions, cannot change what they rest on.
// It only adds entries that are missing: it cannot take away or replace
// the one the goroutine decided to remove, or found there. Or it only
// raises the count found not zero. Or it only takes out, which cannot
// bring back what was found missing, and makes removing the same entry
// again a no-op. Or it writes another object of the state's class.
func (e *engine) cannotUndo(g *Gap, w *ssa.Function, insertOnly map[*ssa.Function]bool) bool {
	field := fieldClass(g.ReadLoc)
	return (g.Removal || g.present) && insertOnly[w] || e.onlyRaises(g, w) ||
		(g.absent || g.Removal) && field != "" && e.onlyRemoves(w, field) || e.writesOtherKeeper(g, w)
}

// heldPrivately reports whether the lock at the end of lock belongs to
// a holder (a map type with its own mutex, say) kept in an unexported
// field of the worker's object that only the worker uses: functions that
// run on it call the holder's methods through the field, and nothing
// else touches the field but the function starting the worker, before it
// does (a constructor filling it). Then that holder is the worker's alone,
// whatever its type's methods do to other holders for other callers.
func (e *engine) heldPrivately(lock Path, root *goStart) bool {
	var keeper *types.Var
	var holder types.Type
	walkPath(lock, func(h types.Type, f *types.Var, isLast bool) {
		if isLast {
			holder = h
		} else {
			keeper = f
		}
	})
	if keeper == nil || holder == nil || keeper.Exported() || keeper.Embedded() {
		return false
	}
	keeper = keeper.Origin()
	for _, fn := range e.funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				field, ok := selects(instr, keeper)
				if !ok {
					continue
				}
				switch {
				case e.worker(fn) == root:
					if !onlyMethodsCalled(field, holder) {
						return false
					}
				case fn == root.Parent() && runsAfter(instr, root.instr) && !inLoop(b):
					// Filled before the worker starts.
				default:
					return false
				}
			}
		}
	}
	return true
}

// selects reports whether instr selects the field f (of any
// instantiation of its struct), and returns the selection.
func selects(instr ssa.Instruction, f *types.Var) (ssa.Value, bool) {
	var x ssa.Value
	var i int
	switch v := instr.(type) {
	case *ssa.FieldAddr:
		x, i = v.X, v.Field
	case *ssa.Field:
		x, i = v.X, v.Field
	default:
		return nil, false
	}
	st, ok := typeparamCore(deref(x.Type())).Underlying().(*types.Struct)
	if !ok || i >= st.NumFields() || st.Field(i).Origin() != f {
		return nil, false
	}
	return instr.(ssa.Value), true
}

// onlyMethodsCalled reports whether the field selected is only loaded to
// call methods of the holder type on it: the holder is not handed on.
func onlyMethodsCalled(field ssa.Value, holder types.Type) bool {
	uses := []ssa.Value{field}
	if _, ok := field.(*ssa.FieldAddr); ok {
		uses = nil
		for _, r := range *field.Referrers() {
			load, ok := r.(*ssa.UnOp)
			if !ok || load.Op != token.MUL {
				return false
			}
			uses = append(uses, load)
		}
	}
	for _, v := range uses {
		for _, r := range *v.Referrers() {
			call, ok := r.(*ssa.Call)
			if !ok {
				return false
			}
			c := call.Common()
			callee := c.StaticCallee()
			if callee == nil || len(c.Args) == 0 || c.Args[0] != v || slices.Contains(c.Args[1:], v) || !methodOf(callee, holder) {
				return false
			}
		}
	}
	return true
}

// methodOf reports whether fn is a method of the named type t (of any
// instantiation of it).
func methodOf(fn *ssa.Function, t types.Type) bool {
	recv := fn.Signature.Recv()
	if recv == nil {
		return false
	}
	a, ok1 := types.Unalias(deref(recv.Type())).(*types.Named)
	b, ok2 := types.Unalias(t).(*types.Named)
	return ok1 && ok2 && a.Origin() == b.Origin()
}

// stateWriters returns the package's functions that write what g's stale
// read read (the field, or else anything under its lock), and which of
// them only add entries that are missing.
func (e *engine) stateWriters(g *Gap) (writers []*ssa.Function, insertOnly map[*ssa.Function]bool) {
	if f := fieldClass(g.ReadLoc); f != "" && len(e.fieldWriters[f]) > 0 {
		return e.fieldWriters[f], e.insertOnly[f]
	}
	if class := lockClass(g.Lock); class != "" {
		return e.writers[class], nil
	}
	return nil, nil
}

// stateKey names the state stateWriters returns the writers of: the
// field, or else the lock class.
func (e *engine) stateKey(g *Gap) string {
	if f := fieldClass(g.ReadLoc); f != "" && len(e.fieldWriters[f]) > 0 {
		return fieldKey(f)
	}
	if class := lockClass(g.Lock); class != "" {
		return lockKey(class)
	}
	return ""
}

func fieldKey(f string) string    { return "field " + f }
func lockKey(class string) string { return "lock " + class }

// noteBareWrite records that fs's function writes the state key with no
// lock held but the state's own.
func (fs *funcState) noteBareWrite(key string) {
	m := fs.e.bareWriters[key]
	if m == nil {
		m = make(map[*ssa.Function]bool)
		fs.e.bareWriters[key] = m
	}
	m[fs.fn] = true
}

// perObjectWorker reports whether the go statement starts g's function as
// a method of an object its function has just allocated (one worker per
// object), or a method that calls g's function on its receiver, g's stale
// read reads that object's own state through the receiver, and g's
// function is the state's only writer once the worker runs: each object's
// state has one goroutine writing it, whatever the number of objects.
// Methods the starting function calls on the new object before starting
// the worker (recovering saved state) write it before the worker exists.
func (e *engine) perObjectWorker(root *goStart, g *Gap, writers []*ssa.Function, insertOnly map[*ssa.Function]bool) bool {
	if e.perObjectClosure(root, g) {
		return onlyWriter(g.Fn, writers)
	}
	fn := root.callee()
	if fn == nil || fn.Signature.Recv() == nil || len(root.args) == 0 || len(fn.Params) == 0 || len(g.Fn.Params) == 0 {
		return false
	}
	if fn != g.Fn && !e.calledOnReceiver(g.Fn, fn) {
		return false
	}
	// The object is made where the worker starts: allocated there, or
	// handed back by a constructor (newChild(conn) per accepted
	// connection).
	obj, ok := root.args[0].(ssa.Instruction)
	if !ok || obj.Parent() != root.Parent() || inLoop(root.Block()) && obj.Block() != root.Block() {
		return false
	}
	switch x := obj.(type) {
	case *ssa.Alloc:
	case *ssa.Call:
		if !e.returnsFresh(&x.Call) {
			return false
		}
	default:
		return false
	}
	// The entries of the object's own map or slice are its own; what a
	// pointer field points to is not (c.srv.count is the server's).
	if g.ReadLoc.Root != g.Fn.Params[0] || strings.Contains(strings.ReplaceAll(g.ReadLoc.Steps, "*;[", "["), "*") {
		return false
	}
	for _, w := range writers {
		if e.cannotUndo(g, w, insertOnly) {
			continue
		}
		if w != g.Fn && w != fn && !e.beforeWorker(w, root.args[0], root) && !e.startsWorkerAfterWrites(w, root, writers) {
			return false
		}
	}
	return true
}

// startsWorkerAfterWrites reports whether w is the function starting the
// worker on an object it has just allocated and writes that object's
// state (itself, or through the writers it calls) only before the go
// statement.
func (e *engine) startsWorkerAfterWrites(w *ssa.Function, root *goStart, writers []*ssa.Function) bool {
	if w != root.Parent() || len(root.args) == 0 {
		return false
	}
	obj, ok := root.args[0].(*ssa.Alloc)
	if !ok || obj.Parent() != w {
		return false
	}
	return writesOnlyBeforeGo(w, root, func(instr ssa.Instruction) bool {
		if st, ok := instr.(*ssa.Store); ok {
			fa, ok := st.Addr.(*ssa.FieldAddr)
			return ok && fa.X == obj
		}
		return e.callsWriter(instr, w, writers)
	})
}

// writesOnlyBeforeGo reports whether every instruction of w, the function
// starting root, that writes (as writes says) runs where the go statement
// cannot have run yet: not in a loop, and not reachable from it.
func writesOnlyBeforeGo(w *ssa.Function, root *goStart, writes func(ssa.Instruction) bool) bool {
	for _, b := range w.Blocks {
		for _, instr := range b.Instrs {
			if writes(instr) && (inLoop(b) || !cannotPrecede(root.instr, instr)) {
				return false
			}
		}
	}
	return true
}

// callsWriter reports whether instr, in fn, calls another of writers.
func (e *engine) callsWriter(instr ssa.Instruction, fn *ssa.Function, writers []*ssa.Function) bool {
	call, ok := instr.(*ssa.Call)
	if !ok {
		return false
	}
	callee, _ := calleeOf(e.pkg, call)
	return callee != nil && callee != fn && slices.Contains(writers, callee)
}

// calledOnReceiver reports whether m runs only where the method outer
// calls it on outer's own receiver.
func (e *engine) calledOnReceiver(m, outer *ssa.Function) bool {
	if !e.callsKnown(m) || m.Signature.Recv() == nil {
		return false
	}
	for _, c := range e.calls[m] {
		call, ok := c.instr.(ssa.CallInstruction)
		if !ok || c.callback || c.caller != outer || len(call.Common().Args) == 0 || call.Common().Args[0] != outer.Params[0] {
			return false
		}
	}
	return true
}

// beforeWorkerOf is beforeWorker for a go statement starting a method of
// an object its function has just allocated.
func (e *engine) beforeWorkerOf(w *ssa.Function, root *goStart) bool {
	if len(root.args) == 0 {
		return false
	}
	obj, ok := root.args[0].(*ssa.Alloc)
	return ok && obj.Parent() == root.Parent() && e.beforeWorker(w, obj, root)
}

// beforeWorker reports whether the method w runs only where the function
// starting the worker calls it on the new object, before the go statement.
func (e *engine) beforeWorker(w *ssa.Function, obj ssa.Value, root *goStart) bool {
	if !e.callsKnown(w) || w.Signature.Recv() == nil {
		return false
	}
	for _, c := range e.calls[w] {
		call, ok := c.instr.(ssa.CallInstruction)
		if !ok || c.callback || c.caller != root.Parent() || len(call.Common().Args) == 0 || call.Common().Args[0] != obj ||
			inLoop(call.Block()) || !runsAfter(c.instr, root.instr) {
			return false
		}
	}
	return true
}

// perObjectClosure reports whether the go statement starts g's function
// as a closure over the receiver of the method it sits in, g's stale read
// reads that object's own state through it, and the method runs once per
// object: its one caller in the package calls it on an object it has just
// allocated, once per allocation (a server starting its signal handler).
func (e *engine) perObjectClosure(root *goStart, g *Gap) bool {
	mc, ok := root.value.(*ssa.MakeClosure)
	if !ok || mc.Fn != g.Fn || len(root.args) != 0 {
		return false
	}
	m := root.Parent()
	if m.Signature.Recv() == nil || len(m.Params) == 0 || !e.callsKnown(m) || len(e.calls[m]) != 1 || inLoop(root.Block()) {
		return false
	}
	// The closure captures the receiver's variable: a cell the method
	// fills with the receiver and never changes.
	fv, ok := g.ReadLoc.Root.(*ssa.FreeVar)
	steps, cell := strings.CutPrefix(g.ReadLoc.Steps, "*;")
	if !ok || !cell || strings.Contains(steps, "*") {
		return false // not the object's own field
	}
	i := slices.Index(g.Fn.FreeVars, fv)
	if i < 0 || i >= len(mc.Bindings) || !holdsOnly(mc.Bindings[i], m.Params[0]) {
		return false
	}
	call, ok := e.calls[m][0].instr.(ssa.CallInstruction)
	if !ok || len(call.Common().Args) == 0 {
		return false
	}
	obj, ok := call.Common().Args[0].(*ssa.Alloc)
	return ok && obj.Parent() == e.calls[m][0].caller && (!inLoop(call.Block()) || obj.Block() == call.Block())
}

// holdsOnly reports whether v is a local variable's cell whose only
// store puts x in it.
func holdsOnly(v, x ssa.Value) bool {
	a, ok := v.(*ssa.Alloc)
	if !ok {
		return false
	}
	stores := 0
	for _, r := range *a.Referrers() {
		switch r := r.(type) {
		case *ssa.Store:
			if r.Addr != a || r.Val != x {
				return false
			}
			stores++
		case *ssa.MakeClosure, *ssa.UnOp:
		default:
			return false
		}
	}
	return stores == 1
}

// holdsFresh reports whether v is a local variable's cell (one a closure
// captured) whose only store puts in it a value allocated in the same
// function: c := &T{...} with a closure over c.
func holdsFresh(v *ssa.Alloc) bool {
	var val ssa.Value
	for _, r := range *v.Referrers() {
		if st, ok := r.(*ssa.Store); ok && st.Addr == v {
			if val != nil {
				return false
			}
			val = st.Val
		}
	}
	a, ok := val.(*ssa.Alloc)
	return ok && a.Parent() == v.Parent()
}

// onlyWriter reports whether fn is the only function among writers (of
// the state a gap read; fn writes it, so writers is never empty).
func onlyWriter(fn *ssa.Function, writers []*ssa.Function) bool {
	for _, w := range writers {
		if w != fn {
			return false
		}
	}
	return true
}

// insertsIfAbsent reports whether w adds a map entry only where a lookup
// of the same key, in the same section, found none (inline or inside the
// helper called).
func (fs *funcState) insertsIfAbsent(w *writeSite, k pathKey) bool {
	switch {
	case w.kind == writeCall && w.inner == writeMapUpdate:
		return slices.ContainsFunc(w.guards, func(g guard) bool {
			return g.existence && g.writeOnMissing && g.loc.key() == w.loc.key()
		})
	case w.kind == writeMapUpdate:
		up, ok := w.instr.(*ssa.MapUpdate)
		if !ok {
			return false
		}
		found := false
		fs.eachDep(w.instr.Block(), func(d branch) {
			subject, missing, ok := existenceTest(ifCond(d.block))
			if !ok || d.succ != missing {
				return
			}
			if l, ok := subject.(*ssa.Lookup); ok && sameValue(l.Index, up.Key) && pathOf(l.X).key() == pathOf(up.Map).key() &&
				sameSection(fs.heldAt(l), w.held, k) {
				found = true
			}
		})
		return found
	}
	return false
}

// worker returns the one go statement fn runs under, or nil: fn is
// started by it, or called only (statically, in the package) by functions
// that run under it, and cannot be called from elsewhere. Memoised; a
// function on a cycle of calls counts as nil while its cycle is explored.
func (e *engine) worker(fn *ssa.Function) *goStart {
	if r, ok := e.workers[fn]; ok {
		return r
	}
	e.workers[fn] = nil
	r := e.findWorker(fn)
	e.workers[fn] = r
	return r
}

func (e *engine) findWorker(fn *ssa.Function) *goStart {
	if e.escapes[fn] {
		return nil
	}
	if obj := fn.Object(); obj != nil && obj.Exported() && !e.hiddenMethod(fn) {
		return nil // (other packages cannot call a hidden type's methods)
	}
	if len(e.calls[fn])+len(e.started[fn]) == 0 {
		return nil
	}
	var root *goStart
	same := func(r *goStart) bool {
		if root == nil {
			root = r
		}
		return r != nil && r == root
	}
	for _, g := range e.started[fn] {
		if !same(g) {
			return nil
		}
	}
	for _, c := range e.calls[fn] {
		if !same(e.worker(c.caller)) {
			return nil
		}
	}
	return root
}

// spawnedRepeatedly reports whether the go statement may run more than
// once: it sits in a loop, or its function is called in one (up the
// package's static call chain).
func (e *engine) spawnedRepeatedly(g *goStart) bool {
	instr := ssa.Instruction(g.instr)
	seen := map[*ssa.Function]bool{}
	for depth := 0; depth < 6; depth++ {
		if inLoop(instr.Block()) {
			return true
		}
		fn := instr.Parent()
		if seen[fn] || e.escapes[fn] || len(e.started[fn]) > 0 || len(e.calls[fn]) > 1 {
			return true
		}
		seen[fn] = true
		if len(e.calls[fn]) == 0 {
			return false // an entry point of the package
		}
		if e.calls[fn][0].callback {
			return true // called back for each element
		}
		instr = e.calls[fn][0].instr
	}
	return true
}

// loops reports whether the goroutine a go statement starts runs a loop:
// a long-lived worker, not a job per request.
// serviceStart reports whether g is a dskit service constructor's, and
// whether the service calls the function again and again (a timer's
// iteration).
func serviceStart(g *goStart) (ok, repeats bool) {
	c, isCall := g.instr.(*ssa.Call)
	if !isCall {
		return false, false
	}
	i, repeats := serviceStarted(c.Call.StaticCallee())
	return i >= 0, repeats
}

func loops(g *goStart) bool {
	if _, repeats := serviceStart(g); repeats {
		return true
	}
	return runsLoop(g.callee(), 2)
}

// runsLoop reports whether fn, or a function it calls directly (to the
// given depth), has a loop: a wrapper that calls the worker loop counts.
func runsLoop(fn *ssa.Function, depth int) bool {
	if fn == nil {
		return false
	}
	// A loop has a back edge: one into a block that dominates its source.
	for _, b := range fn.Blocks {
		for _, s := range b.Succs {
			if s.Dominates(b) {
				return true
			}
		}
	}
	if depth == 0 {
		return false
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if c, ok := instr.(*ssa.Call); ok && runsLoop(c.Call.StaticCallee(), depth-1) {
				return true
			}
		}
	}
	return false
}

// inLoop reports whether b can reach itself.
func inLoop(b *ssa.BasicBlock) bool {
	for _, s := range b.Succs {
		if reaches(s, b) {
			return true
		}
	}
	return false
}

// onlyCalled reports whether instr is a closure of f whose only use is
// as the function a call or go statement invokes.
func (e *engine) onlyCalled(instr ssa.Instruction, f *ssa.Function) bool {
	mc, ok := instr.(*ssa.MakeClosure)
	if !ok || mc.Fn != f || len(*mc.Referrers()) == 0 {
		return false
	}
	for _, r := range *mc.Referrers() {
		if c, ok := r.(*ssa.Call); ok && e.calledBack(c) == f {
			continue
		}
		c, ok := r.(ssa.CallInstruction)
		if !ok || c.Common().Value != mc || slices.Contains(c.Common().Args, ssa.Value(mc)) {
			return false
		}
		if _, isDefer := r.(*ssa.Defer); isDefer {
			return false
		}
	}
	return true
}

// noteWriters records fs's function as a writer under each lock class
// it holds for writing at a write.
func (fs *funcState) noteWriters() {
	tests := inTestFile(fs.fn)
	for _, w := range fs.writes {
		if tests && !fs.ownsTestState(w.loc) {
			// Tests set the package's state up by hand, one step after
			// another; the state of their own fakes they share.
			continue
		}
		for _, h := range w.held {
			if h.mode != Write || h.claim {
				continue
			}
			bare := !fs.e.underKeyedLock[w.instr] && !slices.ContainsFunc(w.held, func(o heldLock) bool { return o.key != h.key }) &&
				!fs.callsPackageWriter(&w)
			if c := lockClass(h.path); c != "" {
				if !slices.Contains(fs.e.writers[c], fs.fn) {
					fs.e.writers[c] = append(fs.e.writers[c], fs.fn)
				}
				if bare {
					fs.noteBareWrite(lockKey(c))
				}
			}
			f := fieldClass(w.loc)
			if f == "" {
				continue
			}
			if bare {
				fs.noteBareWrite(fieldKey(f))
			}
			ins := fs.insertsIfAbsent(&w, h.key)
			if !slices.Contains(fs.e.fieldWriters[f], fs.fn) {
				fs.e.fieldWriters[f] = append(fs.e.fieldWriters[f], fs.fn)
				if fs.e.insertOnly[f] == nil {
					fs.e.insertOnly[f] = make(map[*ssa.Function]bool)
				}
				fs.e.insertOnly[f][fs.fn] = ins
			} else if !ins {
				fs.e.insertOnly[f][fs.fn] = false
			}
			fs.noteFieldWrite(f, &w)
		}
	}
}

// callsPackageWriter reports whether w is a call of another function of
// the package, which is a writer in its own right: whether it holds a
// lock of its own where it writes is asked of it, not read off the
// locks its summary says it takes.
func (fs *funcState) callsPackageWriter(w *writeSite) bool {
	call, ok := w.instr.(ssa.CallInstruction)
	if !ok {
		return false
	}
	callee, _ := calleeOf(fs.e.pkg, call)
	return callee != nil && callee != fs.fn
}

// fieldWrite says how a function writes a field under a lock: by its own
// stores (increments of a counter, or others), or by calling functions of
// the package that write it.
type fieldWrite struct {
	increments, removes, other bool
	via                        []*ssa.Function
	// keepers: the fields of the package's own types through which the
	// function reaches the field, where it belongs to another package's
	// type (the *cache.Cache field a go-cache is kept in); anyKeeper when
	// some write reaches it otherwise.
	keepers   []*types.Var
	anyKeeper bool
}

// noteFieldWrite records how fs's function writes the field f at w.
func (fs *funcState) noteFieldWrite(f string, w *writeSite) {
	m := fs.e.fieldWrites[f]
	if m == nil {
		m = make(map[*ssa.Function]*fieldWrite)
		fs.e.fieldWrites[f] = m
	}
	how := m[fs.fn]
	if how == nil {
		how = &fieldWrite{}
		m[fs.fn] = how
	}
	if k := keeperField(w.loc, fs.e.pkg.Pkg); k == nil {
		how.anyKeeper = true
	} else if !slices.Contains(how.keepers, k) {
		how.keepers = append(how.keepers, k)
	}
	if call, ok := w.instr.(ssa.CallInstruction); ok {
		if callee, _ := calleeOf(fs.e.pkg, call); callee != nil && callee != fs.fn {
			if !slices.Contains(how.via, callee) {
				how.via = append(how.via, callee)
			}
			return
		}
	}
	switch {
	case incrementsInPlace(w):
		how.increments = true
	case removes(w) || w.empties:
		how.removes = true
	default:
		how.other = true
	}
}

// keeperField returns, for a path that reaches a field of a type of
// another package, the last field of the package's own types on the way
// there: the field the other package's object is kept in. Nil for a path
// that stays in the package's own types.
func keeperField(p Path, pkg *types.Package) *types.Var {
	var keeper *types.Var
	foreign := false
	walkPath(p, func(holder types.Type, f *types.Var, _ bool) {
		if foreign {
			return
		}
		if n, ok := types.Unalias(holder).(*types.Named); ok && n.Obj().Pkg() != pkg {
			foreign = true
			return
		}
		keeper = f
	})
	if !foreign {
		return nil
	}
	return keeper
}

// writesOtherKeeper reports whether g's stale read read a field of an
// object of another package kept in a field of the package's own (a
// go-cache in b.roles), and w writes objects of that class only through
// other such fields (b.userIDs): other objects, not g's.
func (e *engine) writesOtherKeeper(g *Gap, w *ssa.Function) bool {
	f := fieldClass(g.ReadLoc)
	k := keeperField(g.ReadLoc, e.pkg.Pkg)
	if f == "" || k == nil {
		return false
	}
	how := e.fieldWrites[f][w]
	return how != nil && !how.anyKeeper && !slices.Contains(how.keepers, k)
}

// incrementsInPlace reports whether w stores into a location the value
// loaded from it plus a positive constant (x.n++, x.n += 2).
func incrementsInPlace(w *writeSite) bool {
	if up, ok := w.instr.(*ssa.MapUpdate); ok {
		// m[k]++: the entry looked up with the same key, plus a step.
		b, ok := up.Value.(*ssa.BinOp)
		if !ok || step(b) <= 0 {
			return false
		}
		l, ok := b.X.(*ssa.Lookup)
		return ok && l.X == up.Map && l.Index == up.Key
	}
	st, ok := w.instr.(*ssa.Store)
	if !ok {
		return false
	}
	b, ok := st.Val.(*ssa.BinOp)
	if !ok || step(b) <= 0 {
		return false
	}
	load, ok := b.X.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return false
	}
	from, to := lockPathOf(load.X), lockPathOf(st.Addr) // elements told apart by index
	return from.Root != nil && from.key() == to.key()
}

// writesOnlyThrough reports whether fn writes the field f only by calling
// target, directly or through functions that themselves write it only so.
func (e *engine) writesOnlyThrough(fn *ssa.Function, f string, target *ssa.Function) bool {
	return e.writesOnly(fn, f, map[*ssa.Function]int{}, func(*fieldWrite) bool { return false }, target)
}

// onlyIncrements reports whether fn's every write of the field f, its own
// or through the functions it calls, adds a positive constant to it.
func (e *engine) onlyIncrements(fn *ssa.Function, f string) bool {
	return e.writesOnly(fn, f, map[*ssa.Function]int{}, func(how *fieldWrite) bool { return !how.other && !how.removes }, nil)
}

// onlyRemoves reports whether fn's every write of the field f, its own or
// through the functions it calls, takes something out (a delete, a
// clear, a nil stored).
func (e *engine) onlyRemoves(fn *ssa.Function, f string) bool {
	return e.writesOnly(fn, f, map[*ssa.Function]int{}, func(how *fieldWrite) bool { return !how.other && !how.increments }, nil)
}

// writesOnly reports whether fn's writes of f are all calls of target, or
// of functions satisfying the same, and its own stores satisfy direct. A
// function met again while it is being asked about counts as not (a
// cycle of calls); one already answered, as answered.
func (e *engine) writesOnly(fn *ssa.Function, f string, seen map[*ssa.Function]int, direct func(*fieldWrite) bool, target *ssa.Function) bool {
	if fn == target {
		return true
	}
	how := e.fieldWrites[f][fn]
	if how == nil {
		return false
	}
	switch seen[fn] {
	case asking:
		return false
	case answeredYes:
		return true
	}
	seen[fn] = asking
	if (how.increments || how.removes || how.other) && !direct(how) {
		return false
	}
	for _, c := range how.via {
		if !e.writesOnly(c, f, seen, direct, target) {
			return false
		}
	}
	seen[fn] = answeredYes
	return true
}

const (
	asking = iota + 1
	answeredYes
)

// ownsTestState reports whether loc is reached from a value of a type the
// tests declare (a fake, a harness).
func (fs *funcState) ownsTestState(loc Path) bool {
	if loc.Root == nil {
		return false
	}
	test, _ := declaredInTest(fs.fn.Prog, loc.Root.Type())
	return test
}

// The tests' own goroutines. A fake the tests declare is often staged by
// the test function itself, one call after another, before or while the
// code under test runs and only reads it: a copy of one canned answer to
// another is then a sequence, not a race. Each test function, and each
// subtest or fuzz target that does not ask to run in parallel, runs on a
// goroutine of its own while its parent waits; tests that do run in
// parallel share only what package variables reach.

// locksFake reports whether g's lock belongs to a value of a type the
// tests declare, not reached from a package variable.
func locksFake(g *Gap) bool {
	if g.Lock.Root == nil {
		return false
	}
	if _, global := g.Lock.Root.(*ssa.Global); global {
		return false
	}
	test, _ := declaredInTest(g.Fn.Prog, g.Lock.Root.Type())
	return test
}

// ownedByTestGoroutine reports whether g's lock guards state of a type the
// tests declare, not reached from a package variable, and g's function
// and every writer of what its stale read read run only on the tests' own
// goroutines.
func (e *engine) ownedByTestGoroutine(g *Gap) bool {
	if !locksFake(g) {
		return false
	}
	writers := e.writers[lockClass(g.Lock)]
	if f := fieldClass(g.ReadLoc); f != "" && len(e.fieldWriters[f]) > 0 {
		writers = e.fieldWriters[f]
	}
	if !e.onTestGoroutine(g.Fn) {
		return false
	}
	for _, w := range writers {
		if !e.onTestGoroutine(w) {
			return false
		}
	}
	return true
}

// onTestGoroutine reports whether fn runs only on a test's own goroutine:
// it is a test entry point, a subtest or fuzz target (not parallel) of
// one, or a test-file function only called, statically, from such.
func (e *engine) onTestGoroutine(fn *ssa.Function) bool {
	return memoised(e.testGoroutineMemo, fn, e.testGoroutine)
}

func (e *engine) testGoroutine(fn *ssa.Function) bool {
	if !inTestFile(fn) {
		return false
	}
	if testEntry(fn) {
		return true
	}
	if fn.Parent() != nil && runBySubtest(fn) {
		return !callsTesting(fn, "Parallel") && e.onTestGoroutine(fn.Parent())
	}
	return e.calledOnlyFrom(fn, e.onTestGoroutine)
}

// testEntry reports whether fn is a function the go test runner calls:
// TestX(*testing.T), BenchmarkX(*testing.B) or FuzzX(*testing.F).
func testEntry(fn *ssa.Function) bool {
	if fn.Parent() != nil || fn.Signature.Recv() != nil || fn.Signature.Params().Len() != 1 {
		return false
	}
	want := map[string]string{"Test": "T", "Benchmark": "B", "Fuzz": "F"}
	for prefix, typ := range want {
		if strings.HasPrefix(fn.Name(), prefix) {
			return isTestingType(fn.Signature.Params().At(0).Type(), typ)
		}
	}
	return false
}

func isTestingType(t types.Type, name string) bool {
	p, ok := t.(*types.Pointer)
	if !ok {
		return false
	}
	n, ok := types.Unalias(p.Elem()).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "testing" && n.Obj().Name() == name
}

// runBySubtest reports whether the closure fn is only made to be handed,
// as the function to run, to testing's Run or Fuzz (Fuzz takes it as an
// interface value; a literal that captures nothing is the function
// itself, with no closure made), or to a test driver (testDriver).
func runBySubtest(fn *ssa.Function) bool {
	handed := func(v ssa.Value, r ssa.Instruction) bool {
		if mi, ok := r.(*ssa.MakeInterface); ok {
			if len(*mi.Referrers()) != 1 {
				return false
			}
			v, r = mi, (*mi.Referrers())[0]
		}
		c, ok := r.(*ssa.Call)
		if !ok || !testingMethod(c.Common(), "Run", "Fuzz") && !testDriver(c.Common()) {
			return false
		}
		args := c.Common().Args
		return args[len(args)-1] == v && !slices.Contains(args[:len(args)-1], v)
	}
	made := 0
	var ops []*ssa.Value
	for _, b := range fn.Parent().Blocks {
		for _, instr := range b.Instrs {
			if mc, ok := instr.(*ssa.MakeClosure); ok && mc.Fn == fn {
				made++
				for _, r := range *mc.Referrers() {
					if !handed(mc, r) {
						return false
					}
				}
				continue
			}
			for _, o := range instr.Operands(ops[:0]) {
				if *o == ssa.Value(fn) {
					made++
					if !handed(fn, instr) {
						return false
					}
				}
			}
		}
	}
	return made > 0
}

// testDriver reports whether c hands a test's *testing.T (or a
// testing.TB) to a function of another package that runs test cases
// from data (datadriven.RunTest, a golden-file walker): it calls the
// function it is also handed for one case after another, on the test's
// goroutine, as t.Run does. A driver whose name says it runs them at
// once (RunParallel, RunConcurrently, Stress) is not one.
func testDriver(c *ssa.CallCommon) bool {
	callee := c.StaticCallee()
	if callee == nil || callee.Pkg == nil || callee.Pkg.Pkg.Path() == "testing" || c.Signature().Recv() != nil {
		return false
	}
	name := strings.ToLower(callee.Name())
	for _, word := range []string{"parallel", "concurren", "async", "stress", "race", "go"} {
		if strings.Contains(name, word) {
			return false
		}
	}
	return slices.ContainsFunc(c.Args, func(a ssa.Value) bool {
		return isTestingType(a.Type(), "T") || isTestingInterface(a.Type(), "TB")
	})
}

// isTestingInterface reports whether t is testing's interface name.
func isTestingInterface(t types.Type, name string) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "testing" && n.Obj().Name() == name
}

// callsTesting reports whether fn calls one of testing's methods by name.
func callsTesting(fn *ssa.Function, names ...string) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if c, ok := instr.(ssa.CallInstruction); ok && testingMethod(c.Common(), names...) {
				return true
			}
		}
	}
	return false
}

func testingMethod(c *ssa.CallCommon, names ...string) bool {
	callee := c.StaticCallee()
	return callee != nil && callee.Pkg != nil && callee.Pkg.Pkg.Path() == "testing" &&
		callee.Signature.Recv() != nil && slices.Contains(names, callee.Name())
}

// oneAtATime reports whether g's function is evidently run one call at a
// time and alone writes what g read. It writes a field of the object
// whose lock the gap is on with no lock held: two calls at once would
// race on that field, a data race the race detector reports, so its
// callers serialise it (one goroutine drives it, as a producer's event
// loop drives its batch builder). A serialised function cannot race its
// own gap; every other writer of the state must be reached only through
// it (a helper of the lock's holder that only it calls), write the state
// only by calling it (a handshake calling the one function that
// negotiates), only raise a count the gap found not zero, or not write
// at all, or be a method of the same type that races g's function on a
// field of their receiver with no lock held (see raceUnlocked).
func (e *engine) oneAtATime(g *Gap) bool {
	if !g.ownerUnlocked {
		return false
	}
	writers, _ := e.stateWriters(g)
	if len(writers) == 0 {
		return false
	}
	for _, w := range writers {
		if w == g.Fn || ofOtherOwner(w, g) || e.throughGapFunction(g, w) || e.onlyRaises(g, w) {
			continue
		}
		if recv := g.Fn.Signature.Recv(); recv != nil && methodOf(w, deref(recv.Type())) && e.raceUnlocked(w, g.Fn) {
			// It too touches, with no lock held, a field of the owner
			// g's function writes (or reads while it writes): on one
			// object the two never run at once either.
			continue
		}
		if e.escapes[w] || len(e.started[w]) > 0 || e.callableOutside(w) {
			return false
		}
		for _, c := range e.calls[w] {
			if c.caller != g.Fn && !otherOwner(c.instr, g) {
				return false
			}
		}
	}
	return true
}

// throughGapFunction reports whether w writes the field g's stale read
// read only by calling g's function (a caller of it: its writes are that
// function's, serialised with it).
func (e *engine) throughGapFunction(g *Gap, w *ssa.Function) bool {
	f := fieldClass(g.ReadLoc)
	return f != "" && len(e.fieldWriters[f]) > 0 && e.writesOnlyThrough(w, f, g.Fn)
}

// onlyRaises reports whether g's stale test found a count not zero and w
// only ever increments that count: it cannot make the count zero, so it
// cannot undo what the test decided.
func (e *engine) onlyRaises(g *Gap, w *ssa.Function) bool {
	f := fieldClass(g.ReadLoc)
	return g.countNonzero && f != "" && len(e.fieldWriters[f]) > 0 && e.onlyIncrements(w, f)
}

// ofOtherOwner reports whether w is a method of a type other than the
// owner of g's lock and the holder embedded in it by value: it writes its
// own receiver's holder (a holder type several owners embed).
func ofOtherOwner(w *ssa.Function, g *Gap) bool {
	holder, ok := holderByValue(g)
	if !ok || w.Signature.Recv() == nil {
		return false
	}
	recv := deref(w.Signature.Recv().Type())
	return !types.Identical(recv, deref(g.Lock.Root.Type())) && !types.Identical(recv, holder)
}

// otherOwner reports whether call is a method call on a holder embedded,
// by value, in an object of another type than the one g's lock belongs
// to: it reaches another holder than g's.
func otherOwner(call ssa.Instruction, g *Gap) bool {
	c, ok := call.(ssa.CallInstruction)
	if _, byValue := holderByValue(g); !ok || !byValue || len(c.Common().Args) == 0 {
		return false
	}
	fa, ok := c.Common().Args[0].(*ssa.FieldAddr)
	if !ok {
		return false
	}
	return !types.Identical(deref(fa.X.Type()), deref(g.Lock.Root.Type()))
}

// holderByValue returns the type of the field of the lock's owner that
// holds g's lock (the lock itself, or a struct with it), when the owner
// keeps it by value, not behind a pointer another owner could share.
func holderByValue(g *Gap) (types.Type, bool) {
	steps := strings.Split(g.Lock.Steps, ";")
	if len(steps) < 2 || !strings.HasPrefix(steps[0], ".") || steps[1] == "*" {
		return nil, false
	}
	st, ok := deref(g.Lock.Root.Type()).Underlying().(*types.Struct)
	if !ok {
		return nil, false
	}
	for i := range st.NumFields() {
		if st.Field(i).Name() == steps[0][1:] {
			return st.Field(i).Type(), true
		}
	}
	return nil, false
}

// callableOutside reports whether another package can call fn: an
// exported function, or an exported method of a type other packages can
// get values of (see hiddenMethod).
func (e *engine) callableOutside(fn *ssa.Function) bool {
	obj, ok := fn.Object().(*types.Func)
	return ok && obj.Exported() && !e.namedOnlyHere(fn) && !e.hiddenMethod(fn)
}

// namedOnlyHere reports whether fn is a function (not a method) of a
// package main: no other package can import it, so only its own code
// names it.
func (e *engine) namedOnlyHere(fn *ssa.Function) bool {
	return e.pkg.Pkg.Name() == "main" && fn.Signature.Recv() == nil
}

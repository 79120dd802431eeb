package lockflow

import (
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// Calling contexts in which a gap cannot be raced, found from the
// package's own call structure (a function its package alone can call):
//
//   - package initialisation: a function run only by init functions and
//     package variable initialisers runs before main and before any
//     goroutine of a package that imports this one. Unless the
//     package's init code starts a goroutine, nothing runs beside it.
//   - construction: a method whose every caller hands it an object the
//     caller has just allocated and not yet let anyone else see (a
//     constructor filling its new value before returning it). Its
//     sections cannot be raced through that object.

// onlyAtInit reports whether fn runs only during the package's
// initialisation, which starts no goroutine.
func (e *engine) onlyAtInit(fn *ssa.Function) bool {
	if e.initGoroutines == nil {
		started := e.initStartsGoroutine()
		e.initGoroutines = &started
	}
	if *e.initGoroutines {
		return false
	}
	return e.initOnly(fn)
}

func (e *engine) initOnly(fn *ssa.Function) bool {
	return memoised(e.initOnlyMemo, fn, e.findInitOnly)
}

func (e *engine) findInitOnly(fn *ssa.Function) bool {
	return isInitFunc(e.pkg, fn) || e.calledOnlyFrom(fn, e.initOnly)
}

// isInitFunc reports whether fn is the package initialiser or one of the
// package's init functions (named init#1, init#2, ... by go/ssa).
func isInitFunc(pkg *ssa.Package, fn *ssa.Function) bool {
	if fn.Pkg != pkg || fn.Parent() != nil || fn.Signature.Recv() != nil {
		return false
	}
	return fn.Name() == "init" || strings.HasPrefix(fn.Name(), "init#")
}

// initStartsGoroutine reports whether the package's initialisation starts
// a goroutine.
func (e *engine) initStartsGoroutine() bool {
	init := e.pkg.Func("init")
	return init != nil && runsGoroutines(init, nil, nil, nil)
}

// constructing reports whether g's lock belongs to the receiver (or
// another parameter) of a method that every caller in the package hands an
// object it has just allocated and shown no one yet, and that keeps the
// object to itself and starts no goroutine.
func (e *engine) constructing(g *Gap) bool {
	if fv, ok := g.Lock.Root.(*ssa.FreeVar); ok {
		return e.buildingWorker(g.Fn) && onBuiltObject(g.Fn, fv)
	}
	p, ok := g.Lock.Root.(*ssa.Parameter)
	if !ok || p.Parent() != g.Fn {
		return false
	}
	if v, ok := e.constructingMemo[p]; ok {
		return v
	}
	if e.constructingMemo == nil {
		e.constructingMemo = make(map[*ssa.Parameter]bool)
	}
	fn := g.Fn
	i := paramIndex(fn, p)
	// The walks over fn's body last: they cost the most.
	v := i >= 0 && e.calledOnFresh(fn, i) && !startsGoroutine(fn) && staysLocal(p, 0)
	e.constructingMemo[p] = v
	return v
}

// buildingWorker reports whether fn is a goroutine a method starts on
// an object still being built, and waits for before it returns: a
// constructor restoring saved records, one goroutine per record, before
// it hands the object out. No one but the method's other workers can
// reach the object while fn runs, and each worker has its own record.
func (e *engine) buildingWorker(fn *ssa.Function) bool {
	m := fn.Parent()
	if m == nil || m.Parent() != nil || e.escapes[fn] || len(e.calls[fn]) > 0 || len(e.started[fn]) == 0 {
		return false
	}
	if e.buildingWorkers == nil {
		e.buildingWorkers = make(map[*ssa.Function]bool)
	}
	return memoised(e.buildingWorkers, fn, func(fn *ssa.Function) bool {
		if m.Signature.Recv() == nil || !e.calledOnFresh(m, 0) {
			return false
		}
		for _, g := range e.started[fn] {
			if g.Parent() != m {
				return false
			}
			waits := joinsBeforeReturn(g)
			if len(waits) == 0 || e.touchesReceiverBeside(g, waits) {
				return false
			}
		}
		return true
	})
}

// touchesReceiverBeside reports whether the method starting g may, while
// its workers run (after the go statement and before a wait), call
// something with its receiver, store into it, or hand it to a closure
// other than a worker it joins; or whether it starts a goroutine it does
// not join before returning. Then the workers are not alone with the
// object.
func (e *engine) touchesReceiverBeside(g *goStart, waits []ssa.Instruction) bool {
	m := g.Parent()
	own := func(v ssa.Value) bool { return isOwnReceiver(m, v) || holdsOnly(v, m.Params[0]) }
	joined := func(instr ssa.Instruction) bool {
		s := e.asGoStart(instr)
		return s != nil && len(joinsBeforeReturn(s)) > 0
	}
	for _, b := range m.Blocks {
		for _, instr := range b.Instrs {
			if s := e.asGoStart(instr); s != nil && len(joinsBeforeReturn(s)) == 0 {
				return true // outlives the method, beside the workers
			}
			if instr == g.instr || cannotPrecede(g.instr, instr) ||
				slices.ContainsFunc(waits, func(w ssa.Instruction) bool { return w != instr && runsAfter(w, instr) }) {
				continue
			}
			switch x := instr.(type) {
			case *ssa.MakeClosure:
				if slices.ContainsFunc(x.Bindings, own) && slices.ContainsFunc(*x.Referrers(), func(r ssa.Instruction) bool { return !joined(r) }) {
					return true
				}
			case ssa.CallInstruction:
				if joined(instr) {
					continue
				}
				if slices.ContainsFunc(x.Common().Args, own) {
					return true
				}
			case *ssa.Store:
				if own(pathOf(x.Addr).Root) {
					return true
				}
			case *ssa.MapUpdate:
				if own(pathOf(x.Map).Root) {
					return true
				}
			}
		}
	}
	return false
}

// buildingCall reports whether c is a method call a goroutine
// buildingWorker accepts makes on the object being built.
func (e *engine) buildingCall(c staticCall) bool {
	call, ok := c.instr.(ssa.CallInstruction)
	return ok && !c.callback && len(call.Common().Args) > 0 && e.buildingWorker(c.caller) && onBuiltObject(c.caller, call.Common().Args[0])
}

// onBuiltObject reports whether v, in a goroutine buildingWorker accepts,
// is the object its method is building: the method's receiver, captured
// (go/ssa captures the receiver's cell, which holds nothing else).
func onBuiltObject(fn *ssa.Function, v ssa.Value) bool {
	if load, ok := v.(*ssa.UnOp); ok && load.Op == token.MUL {
		v = load.X
	}
	fv, ok := v.(*ssa.FreeVar)
	if !ok || fv.Parent() != fn {
		return false
	}
	i := slices.Index(fn.FreeVars, fv)
	m := fn.Parent()
	for _, ref := range *fn.Referrers() {
		mc, ok := ref.(*ssa.MakeClosure)
		if !ok || i >= len(mc.Bindings) || mc.Bindings[i] != ssa.Value(m.Params[0]) && !holdsOnly(mc.Bindings[i], m.Params[0]) {
			return false
		}
	}
	return true
}

// joinsBeforeReturn returns the waits for a group (a WaitGroup's or
// errgroup's Wait) that the function starting g makes after the go
// statement, when one of them comes on every way out; nil otherwise.
func joinsBeforeReturn(g *goStart) []ssa.Instruction {
	fn := g.Parent()
	group := groupOf(g)
	if group == nil {
		return nil
	}
	var waits []ssa.Instruction
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if joinCall(instr) && cannotPrecede(instr, g.instr) && sameGroup(instr.(*ssa.Call).Call.Args[0], group) {
				waits = append(waits, instr)
			}
		}
	}
	if len(waits) == 0 {
		return nil
	}
	for _, b := range fn.Blocks {
		if _, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); !ok || !reaches(g.Block(), b) {
			continue
		}
		if !slices.ContainsFunc(waits, func(w ssa.Instruction) bool { return w.Block().Dominates(b) }) {
			return nil
		}
	}
	return waits
}

// groupOf returns the group, in the function starting g, that g's
// goroutine belongs to: the receiver of the Go method starting it, or
// the WaitGroup the started closure marks done, as the closure captured
// it. Nil when there is none the function can name.
func groupOf(g *goStart) ssa.Value {
	if call, ok := g.instr.(*ssa.Call); ok {
		return call.Call.Args[0] // the Go method's receiver
	}
	mc, ok := g.value.(*ssa.MakeClosure)
	if !ok {
		return nil
	}
	fn, ok := mc.Fn.(*ssa.Function)
	if !ok {
		return nil
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			callee := call.Common().StaticCallee()
			if callee == nil || callee.Name() != "Done" || callee.Signature.Recv() == nil ||
				!isNamed(deref(callee.Signature.Recv().Type()), "sync", "WaitGroup") {
				continue
			}
			if fv, ok := call.Common().Args[0].(*ssa.FreeVar); ok {
				if i := slices.Index(fn.FreeVars, fv); i >= 0 && i < len(mc.Bindings) {
					return mc.Bindings[i]
				}
			}
		}
	}
	return nil
}

// sameGroup reports whether v and group, in one function, are the same
// group: one value, or the same access path.
func sameGroup(v, group ssa.Value) bool {
	if v == group {
		return true
	}
	p, q := pathOf(v), pathOf(group)
	return p.Root != nil && q.Root != nil && p.key() == q.key()
}

// joinCall reports whether instr calls Wait on a group whose Go method
// goStart knows.
func joinCall(instr ssa.Instruction) bool {
	call, ok := instr.(*ssa.Call)
	if !ok {
		return false
	}
	callee := call.Call.StaticCallee()
	if callee == nil || callee.Name() != "Wait" || callee.Signature.Recv() == nil {
		return false
	}
	n, ok := types.Unalias(deref(callee.Signature.Recv().Type())).(*types.Named)
	return ok && n.Obj().Pkg() != nil && goMethods[[2]string{n.Obj().Pkg().Path(), n.Obj().Name()}]
}

// calledOnFresh reports whether fn, a declared function, runs only where
// the package calls it, each call handing it as argument i an object the
// caller has just made and shown no one yet.
func (e *engine) calledOnFresh(fn *ssa.Function, i int) bool {
	if i < 0 || !e.callsKnown(fn) || fn.Parent() != nil {
		return false
	}
	for _, c := range e.calls[fn] {
		if !e.callOnFresh(c, i) {
			return false
		}
	}
	return true
}

// callOnFresh reports whether call c hands its callee, as argument i, an
// object the caller has just made and shown no one yet.
func (e *engine) callOnFresh(c staticCall, i int) bool {
	call, ok := c.instr.(ssa.CallInstruction)
	if !ok {
		return false
	}
	args := call.Common().Args
	if i >= len(args) {
		return false
	}
	return e.freshArg(args[i], c.caller, c.instr) || e.configuredFresh(args[i], c.caller, c.instr)
}

// freshArg reports whether v, an argument of call in caller, is an object
// the caller has just made, allocated there or handed back by a
// constructor (see returnsFresh), and has shown no one before the call.
func (e *engine) freshArg(v ssa.Value, caller *ssa.Function, call ssa.Instruction) bool {
	switch x := v.(type) {
	case *ssa.Alloc:
		return x.Parent() == caller && e.unseenBefore(x, call)
	case *ssa.Call:
		return x.Parent() == caller && e.returnsFresh(&x.Call) && e.unseenBefore(x, call)
	}
	return false
}

// returnsFresh reports whether the call is of a constructor: a function
// whose every return hands back, as its one result, a new allocation it
// kept to itself (or nil), and that starts no goroutine. Constructors of
// other packages say so in a FreshResult fact.
func (e *engine) returnsFresh(c *ssa.CallCommon) bool {
	f := c.StaticCallee()
	if f == nil || c.IsInvoke() {
		return false
	}
	if f.Pkg == e.pkg {
		return constructor(f)
	}
	obj, ok := f.Object().(*types.Func)
	var fact FreshResult
	return ok && e.pass != nil && obj.Pkg() != e.pass.Pkg && e.pass.ImportObjectFact(obj, &fact)
}

// constructor reports whether fn returns, on every way out, a new
// allocation of its own that nothing else has seen (or nil).
func constructor(fn *ssa.Function) bool {
	if len(fn.Blocks) == 0 || fn.Signature.Results().Len() != 1 || startsGoroutine(fn) {
		return false
	}
	made := false
	for _, b := range fn.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok || b == fn.Recover {
			continue
		}
		switch x := ret.Results[0].(type) {
		case *ssa.Const:
			if !x.IsNil() {
				return false
			}
		case *ssa.Alloc:
			if x.Parent() != fn {
				return false
			}
			for _, ref := range *x.Referrers() {
				if ref != ret && !refStaysLocal(x, ref, 0) {
					return false
				}
			}
			made = true
		default:
			return false
		}
	}
	return made
}

// FreshResult marks an exported constructor (see constructor): what a
// call of it hands back is a new object no one else has seen (for the
// driver's module-wide step, FreshEntry, and for objects a caller keeps
// to itself, unsharedLocal).
type FreshResult struct{}

func (*FreshResult) AFact()         {}
func (*FreshResult) String() string { return "returns a new object" }

func paramIndex(fn *ssa.Function, p *ssa.Parameter) int {
	for i, q := range fn.Params {
		if q == p {
			return i
		}
	}
	return -1
}

// unseenBefore reports whether nothing that may run before call lets
// another goroutine reach the new object a: every use from which call can
// be reached, within this run of the function, keeps it local, as
// staysLocal means it. A call in a loop is reached again from the uses
// after it in the loop's body, so those count too; a use after the loop,
// or on another branch, does not.
func (e *engine) unseenBefore(a ssa.Value, call ssa.Instruction) bool {
	for _, ref := range *a.Referrers() {
		if ref == call || !mayPrecede(ref, call) {
			continue
		}
		if !refStaysLocal(a, ref, 0) && !e.keptByFreshEntry(a, ref) {
			return false
		}
	}
	return true
}

// keptByFreshEntry reports whether ref is a call handing a, as the
// argument it marks, to another package's fresh entry: its package found
// that the entry keeps that argument to itself and starts no goroutine
// (its body is not here to look at), so an earlier such call shows the
// object to no one (one request's lookups, one after another).
func (e *engine) keptByFreshEntry(a ssa.Value, ref ssa.Instruction) bool {
	call, ok := ref.(*ssa.Call)
	if !ok || call.Call.IsInvoke() {
		return false
	}
	callee := call.Call.StaticCallee()
	if callee == nil || call.Call.Value == a {
		return false
	}
	obj, ok := callee.Object().(*types.Func)
	if !ok {
		return false
	}
	i, marked := e.freshEntries()[obj.Origin()]
	return marked && i < len(call.Call.Args) && call.Call.Args[i] == a && !slices.Contains(call.Call.Args[i+1:], a) && !slices.Contains(call.Call.Args[:i], a)
}

// mayPrecede reports whether an execution of the function can run first
// and then later.
func mayPrecede(first, later ssa.Instruction) bool {
	fb, lb := first.Block(), later.Block()
	if fb != lb {
		return reaches(fb, lb)
	}
	for _, instr := range fb.Instrs {
		switch instr {
		case first:
			return true
		case later:
			return inLoop(fb)
		}
	}
	return false
}

// runsAfter reports whether every execution of later follows one of
// first: first's block dominates later's, and within one block later
// comes after it (first is not in a loop; the caller checks).
func runsAfter(first, later ssa.Instruction) bool {
	fb, lb := first.Block(), later.Block()
	if fb == lb {
		for _, instr := range fb.Instrs {
			switch instr {
			case first:
				return true
			case later:
				return false
			}
		}
		return false
	}
	return fb.Dominates(lb)
}

// A singleflight group runs one call per key at a time, so for the state
// of that key it is an outer lock across both sections of a function it
// runs. As with a claim map, keys are not told apart. x/sync's
// singleflight.Group (and groups like it: a method Do or DoChan of a type
// named Group, given a string key and the function) is trusted as it is;
// a group of another name (go-zero's SingleFlight, a flightGroup) only
// where every writer of the state the gap read runs inside a flight too,
// since the group is an outer lock against other flights alone.
type flight int

const (
	noFlight flight = iota
	groupFlight
	namedFlight
)

// A slot taken for the run: section A finds a field of the lock's owner
// unset (an in-progress build, a busy flag) and leaves, or waits, when it
// is set; else it sets it, and section B unsets it. Between the two no
// other run of the function gets past A: the slot is an outer lock of the
// function's own making, as a singleflight group with one key. It covers
// the gap when the function alone writes what A read (its callers may,
// through it).
//
// slotHeld reports whether g's function takes such a slot in A and gives
// it back in B, and no other function of the package writes the state A
// read but through it.
func (e *engine) slotHeld(g *Gap) bool {
	f := fieldClass(g.ReadLoc)
	writers := e.fieldWriters[f]
	if f == "" || !slices.Contains(writers, g.Fn) || len(g.AReleases) == 0 {
		return false
	}
	for _, w := range writers {
		// Callers of the function write through it, under its slot.
		if w != g.Fn && !e.writesOnlyThrough(w, f, g.Fn) {
			return false
		}
	}
	aEnd := g.AReleases[0]
	for _, s := range e.slotsOf(g.Fn) {
		if s.set > g.AOpen && s.set < aEnd && slices.ContainsFunc(s.unsets, func(p token.Pos) bool { return p > g.BOpen }) {
			return true
		}
	}
	return false
}

// slot is a field a function sets only where it found it unset, at set,
// and unsets at unsets.
type slot struct {
	set    token.Pos
	unsets []token.Pos
}

// slotsOf returns the slots fn sets and unsets (memoised: a large
// function has many gaps, and each asks).
func (e *engine) slotsOf(fn *ssa.Function) []slot {
	if s, ok := e.slotsMemo[fn]; ok {
		return s
	}
	sets := make(map[pathKey][]token.Pos)
	unsets := make(map[pathKey][]token.Pos)
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			st, ok := instr.(*ssa.Store)
			if !ok {
				continue
			}
			fa, ok := st.Addr.(*ssa.FieldAddr)
			if !ok {
				continue
			}
			key := pathOf(fa).key()
			switch {
			case emptyOrFalse(st.Val):
				unsets[key] = append(unsets[key], st.Pos())
			case setOnlyWhenUnset(st, key):
				sets[key] = append(sets[key], st.Pos())
			}
		}
	}
	var out []slot
	for key, at := range sets {
		if len(unsets[key]) == 0 {
			continue
		}
		for _, p := range at {
			out = append(out, slot{set: p, unsets: unsets[key]})
		}
	}
	if e.slotsMemo == nil {
		e.slotsMemo = make(map[*ssa.Function][]slot)
	}
	e.slotsMemo[fn] = out
	return out
}

// emptyOrFalse reports whether v is nil, false, or a new empty slice or
// map: what unsets a slot.
func emptyOrFalse(v ssa.Value) bool {
	if c, ok := v.(*ssa.Const); ok && isFalse(c) {
		return true
	}
	return emptyValue(v)
}

// setOnlyWhenUnset reports whether st, a store of the field at slot, runs
// only after a branch on that field being unset whose other side never
// reaches st.
func setOnlyWhenUnset(st *ssa.Store, slot pathKey) bool {
	depth := 0
	for b := st.Block().Idom(); b != nil && depth < 16; b, depth = b.Idom(), depth+1 {
		cond := ifCond(b)
		if cond == nil || !testsSlot(cond, slot) {
			continue
		}
		for _, succ := range b.Succs {
			if !reaches(succ, st.Block()) {
				return true
			}
		}
	}
	return false
}

// testsSlot reports whether cond compares the field at slot with nil or
// false, or is that boolean field itself (through negations).
func testsSlot(cond ssa.Value, slot pathKey) bool {
	isSlot := func(v ssa.Value) bool {
		ld, ok := v.(*ssa.UnOp)
		return ok && ld.Op == token.MUL && pathOf(ld.X).key() == slot
	}
	cond = withoutNegation(cond)
	if isSlot(cond) {
		return true
	}
	bin, ok := cond.(*ssa.BinOp)
	if !ok || bin.Op != token.EQL && bin.Op != token.NEQ {
		return false
	}
	zero := func(v ssa.Value) bool {
		c, ok := v.(*ssa.Const)
		return ok && (c.IsNil() || isFalse(c))
	}
	return isSlot(bin.X) && zero(bin.Y) || isSlot(bin.Y) && zero(bin.X)
}

// inFlight reports whether g's function runs inside a singleflight group
// that serialises it with every writer of what it read.
func (e *engine) inFlight(g *Gap) bool {
	switch flightOf(g.Fn) {
	case groupFlight:
		return true
	case namedFlight:
		writers, _ := e.stateWriters(g)
		if len(writers) == 0 {
			return false
		}
		for _, w := range writers {
			if flightOf(w) == noFlight {
				return false
			}
		}
		return true
	}
	return false
}

// flightOf tells whether fn is the function a singleflight group runs for
// a key, and which kind of group.
func flightOf(fn *ssa.Function) flight {
	parent := fn.Parent()
	if parent == nil {
		return noFlight
	}
	var value ssa.Value = fn
	if mc := closureOf(fn); mc != nil {
		value = mc
	}
	uses := 0
	kind := noFlight
	for _, b := range parent.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			for _, arg := range call.Common().Args {
				if arg == value {
					uses++
					kind = flightCall(call.Common())
				}
			}
		}
	}
	if uses != 1 {
		return noFlight
	}
	return kind
}

// flightCall tells whether c calls a singleflight group's Do, DoEx or
// DoChan with a string key, and which kind of group.
func flightCall(c *ssa.CallCommon) flight {
	name, sig, ok := calledMethod(c)
	if !ok {
		return noFlight
	}
	if name != "Do" && name != "DoEx" && name != "DoChan" || sig.Recv() == nil {
		return noFlight
	}
	named, ok := types.Unalias(deref(sig.Recv().Type())).(*types.Named)
	if !ok {
		return noFlight
	}
	kind := noFlight
	switch typeName := named.Obj().Name(); {
	case typeName == "Group":
		kind = groupFlight
	case strings.Contains(strings.ToLower(typeName), "flight"):
		kind = namedFlight
	default:
		return noFlight
	}
	for i := range sig.Params().Len() {
		if b, ok := sig.Params().At(i).Type().Underlying().(*types.Basic); ok && b.Kind() == types.String {
			return kind
		}
	}
	return noFlight
}

// calledMethod returns the name and signature of what c calls: the
// interface method it invokes, or its static callee.
func calledMethod(c *ssa.CallCommon) (string, *types.Signature, bool) {
	switch {
	case c.Method != nil:
		return c.Method.Name(), c.Method.Type().(*types.Signature), true
	case c.StaticCallee() != nil:
		return c.StaticCallee().Name(), c.StaticCallee().Signature, true
	}
	return "", nil, false
}

package lockflow

import (
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// A function that calls a function it was handed while holding a lock
// runs that function under the lock. Two shapes are common: an iterator
// that holds its lock while it yields, so the body of every
// range-over-func loop over it runs under that lock,
//
//	func (t *table) All() iter.Seq2[string, *entry] {
//		return func(yield func(string, *entry) bool) {
//			t.mu.RLock()
//			defer t.mu.RUnlock()
//			for k, e := range t.m {
//				if !yield(k, e) { ... }
//
//	for k, e := range t.All() {
//		if e.expired() {
//			t.remove(k) // takes t.mu: waits for the iterator, which waits for the body
//
// and a Range or WithLock method calling its callback under the lock.
// The body (or the callback) taking the same lock again is a reentry like
// a helper's (reentry.go), reported where it takes it: on every run the
// lock is held, since the runner holds it at every call of the function.
// Only the runner's own lock counts (not one its caller holds), and the
// body is judged as go/ssa built it: a function of its own, whose free
// variables are its surroundings.

// relLockAt is a lock relative to a function, with its kind and where the
// function takes it: one a runner holds while the function it was handed
// runs (relative to the runner, or to a function returning it), or one a
// function takes first (summary.takesFirst).
type relLockAt struct {
	lock    relLock
	rwmutex bool
	pos     token.Pos // NoPos when imported
}

// paramLocks: the locks a function holds at every call of its parameter
// param.
type paramLocks struct {
	param int
	locks []relLockAt
}

// calledParam returns the index of the parameter of fn that call calls,
// if it calls one.
func calledParam(fn *ssa.Function, call *ssa.Call) (int, bool) {
	p, ok := call.Call.Value.(*ssa.Parameter)
	if !ok || p.Parent() != fn {
		return 0, false
	}
	for i, q := range fn.Params {
		if q == p {
			return i, true
		}
	}
	return 0, false
}

// noteParamCall records the locks held at a call of parameter i.
func (fs *funcState) noteParamCall(i int, s lockState) {
	if fs.paramHeld == nil {
		fs.paramHeld = make(map[int]lockState)
	}
	if held, seen := fs.paramHeld[i]; seen {
		fs.paramHeld[i] = meet(held, s)
	} else {
		fs.paramHeld[i] = s
	}
}

// callbackLocks returns, per parameter the function calls, the locks it
// takes itself and holds at every call of it, relative to its inputs.
func (fs *funcState) callbackLocks() []paramLocks {
	var out []paramLocks
	for i := range fs.fn.Params {
		held, ok := fs.paramHeld[i]
		if !ok {
			continue
		}
		var locks []relLockAt
		for _, h := range held {
			if h.claim || len(h.openers) == 0 {
				continue
			}
			own := true
			for _, o := range h.openers {
				if a := fs.flow.acquires[o]; a.helper || a.claim {
					own = false
				}
			}
			rp, ok := toRel(fs.fn, h.path)
			if own && ok {
				opener := fs.flow.acquires[h.openers[0]].instr
				locks = append(locks, relLockAt{lock: relLock{path: rp, mode: h.mode}, rwmutex: fs.flow.ops[opener].rwmutex, pos: opener.Pos()})
			}
		}
		if len(locks) > 0 {
			out = append(out, paramLocks{param: i, locks: locks})
		}
	}
	return out
}

// locksAtCall returns the locks held at every call of parameter i.
func locksAtCall(all []paramLocks, i int) []relLockAt {
	for _, p := range all {
		if p.param == i {
			return p.locks
		}
	}
	return nil
}

// returnedIterLocks returns, for a function whose every return hands back
// an iterator closure of the package, the locks those iterators hold while
// the loop body runs, relative to the function's inputs (those all of them
// hold).
func (e *engine) returnedIterLocks(fn *ssa.Function) []relLockAt {
	var out []relLockAt
	first := true
	for _, b := range fn.Blocks {
		if len(b.Instrs) == 0 {
			continue
		}
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok {
			continue
		}
		if len(ret.Results) == 0 {
			return nil
		}
		r := ret.Results[0]
		if ct, ok := r.(*ssa.ChangeType); ok {
			r = ct.X // func(yield ...) to iter.Seq
		}
		mc, ok := r.(*ssa.MakeClosure)
		if !ok {
			return nil
		}
		g, ok := mc.Fn.(*ssa.Function)
		if !ok || g.Pkg != fn.Pkg || len(g.Params) != 1 || !e.locks(g) {
			return nil
		}
		sum := e.summaryOf(g)
		if sum == nil {
			return nil
		}
		cs := &callSite{bindings: mc.Bindings}
		var these []relLockAt
		for _, l := range locksAtCall(sum.callbacks, 0) {
			p, ok := cs.resolveLock(l.lock.path)
			if !ok {
				continue
			}
			if rp, ok := toRel(fn, p); ok {
				these = append(these, relLockAt{lock: relLock{path: rp, mode: l.lock.mode}, rwmutex: l.rwmutex, pos: l.pos})
			}
		}
		if first {
			out, first = these, false
			continue
		}
		var kept []relLockAt
		for _, l := range out {
			for _, t := range these {
				if t.lock == l.lock {
					kept = append(kept, l)
					break
				}
			}
		}
		out = kept
	}
	return out
}

// heldByRunner is a lock a runner holds while a function handed to it
// runs, in the terms of the function making the call.
type heldByRunner struct {
	path Path
	mode Mode
	pos  token.Pos // the runner's Lock or RLock; NoPos in another package
	// steps: for another package's method, the lock's steps from its
	// receiver, to name it in the caller's terms.
	steps string
}

// runnerLocks maps the locks a runner holds (relative to fn, called with
// cs) onto the caller.
func runnerLocks(locks []relLockAt, cs *callSite) []heldByRunner {
	var out []heldByRunner
	for _, l := range locks {
		if p, ok := cs.resolveLock(l.lock.path); ok && !strings.Contains(p.Steps, "[") {
			h := heldByRunner{path: p, mode: l.lock.mode, pos: l.pos}
			if !l.pos.IsValid() && l.lock.path.param == 0 && l.lock.path.global == nil {
				h.steps = l.lock.path.steps
			}
			out = append(out, h)
		}
	}
	return out
}

// iteratorLocks returns the locks the iterator v holds while it runs a
// loop body: v is a call of a function returning an iterator (of the
// package, or of another whose fact says), an iterator closure, or an
// iterator function of the package.
func (e *engine) iteratorLocks(v ssa.Value) []heldByRunner {
	var fn *ssa.Function
	cs := &callSite{}
	returned := false
	switch v := v.(type) {
	case *ssa.Call:
		if v.Call.IsInvoke() {
			return nil
		}
		fn = v.Call.StaticCallee()
		cs.instr, cs.args, returned = v, v.Call.Args, true
	case *ssa.MakeClosure:
		fn, _ = v.Fn.(*ssa.Function)
		cs.bindings = v.Bindings
	case *ssa.Function:
		fn = v
	}
	fn = origin(fn) // another package's generic method too: its fact is the origin's
	if fn == nil {
		return nil
	}
	var locks []relLockAt
	switch {
	case fn.Pkg != e.pkg:
		if !returned || !e.external(fn) {
			return nil
		}
		if sum := e.importedSummary(fn); sum != nil {
			locks = sum.iterLocks
		}
	case len(fn.Blocks) == 0 || !returned && !e.locks(fn):
		return nil
	case returned:
		locks = e.returnedIterLocks(fn)
	default:
		if sum := e.summaryOf(fn); sum != nil {
			locks = locksAtCall(sum.callbacks, 0)
		}
	}
	return runnerLocks(locks, cs)
}

// noteIteratorReentry records a Reentry where the body of the
// range-over-func loop that call runs takes a lock the iterator holds.
func (fs *funcState) noteIteratorReentry(call *ssa.Call) {
	body, mc := yieldBody(call)
	if body == nil || len(body.Blocks) == 0 {
		return
	}
	held := fs.e.iteratorLocks(call.Call.Value)
	var runner token.Pos
	if c, ok := call.Call.Value.(*ssa.Call); ok {
		runner = c.Pos()
	}
	fs.noteTakenUnder(held, body, mc, Reentry{Runner: RunnerIterator, RunnerCall: runner})
}

// noteCallbackReentry records a Reentry where a function literal (or a
// function of the package) handed to call is called by the callee while
// it holds a lock, and takes that lock again.
func (fs *funcState) noteCallbackReentry(call *ssa.Call) {
	if call.Call.IsInvoke() {
		return
	}
	if body, _ := yieldBody(call); body != nil {
		return // a range-over-func loop: noteIteratorReentry
	}
	callee := origin(call.Call.StaticCallee())
	if callee == nil || !slices.ContainsFunc(call.Call.Args, isFuncOfPackage(fs.e.pkg)) {
		return
	}
	var all []paramLocks
	switch {
	case callee.Pkg == fs.e.pkg && len(callee.Blocks) > 0 && callee != fs.fn && fs.e.locks(callee):
		if sum := fs.e.summaryOf(callee); sum != nil {
			all = sum.callbacks
		}
	case callee.Pkg != fs.e.pkg && fs.e.external(callee):
		if sum := fs.e.importedSummary(callee); sum != nil {
			all = sum.callbacks
		}
	}
	for _, pl := range all {
		if pl.param >= len(call.Call.Args) {
			continue
		}
		var body *ssa.Function
		var mc *ssa.MakeClosure
		switch a := call.Call.Args[pl.param].(type) {
		case *ssa.MakeClosure:
			mc = a
			body, _ = a.Fn.(*ssa.Function)
		case *ssa.Function:
			body = a
		}
		if body == nil || body.Pkg != fs.e.pkg || len(body.Blocks) == 0 {
			continue
		}
		held := runnerLocks(pl.locks, &callSite{instr: call, args: call.Call.Args})
		fs.noteTakenUnder(held, body, mc, Reentry{Runner: RunnerCallback, RunnerCall: call.Pos()})
	}
}

// noteTakenUnder records a Reentry (completing proto) for the first place
// body takes each lock of held, which its runner holds whenever body runs.
func (fs *funcState) noteTakenUnder(held []heldByRunner, body *ssa.Function, mc *ssa.MakeClosure, proto Reentry) {
	e := fs.e
	if len(held) == 0 || unlocksCallersLock(body) {
		return
	}
	cs := &callSite{}
	if mc != nil {
		cs.bindings = mc.Bindings
	}
	reported := make(map[pathKey]bool)
	for _, b := range body.Blocks {
		if b == body.Recover {
			continue
		}
		for _, instr := range b.Instrs {
			c, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			var takes []firstTake
			if op, ok := syncLockOp(c.Common()); ok {
				if op.kind == opRelease {
					if rp, ok := toRel(body, op.path); ok {
						if p, ok := cs.resolveLock(rp); ok && heldKey(held, p.key()) {
							return // the body lets the lock go itself
						}
					}
					continue
				}
				if rp, ok := toRel(body, op.path); ok {
					takes = append(takes, firstTake{rp: rp, op: op})
				}
			} else if f := origin(c.Call.StaticCallee()); f != nil && !c.Call.IsInvoke() && e.external(f) {
				if sum := e.importedSummary(f); sum != nil {
					ics := &callSite{instr: c, args: c.Call.Args}
					for _, t := range sum.takesFirst {
						p, ok := ics.resolveLock(t.lock.path)
						if !ok {
							continue
						}
						if rp, ok := toRel(body, p); ok {
							takes = append(takes, firstTake{rp: rp, op: lockOp{kind: opAcquire, mode: t.lock.mode, path: p, rwmutex: t.rwmutex}})
						}
					}
				}
			} else if inner, ics := calleeOf(body.Pkg, c); inner != nil && inner != body && len(inner.Blocks) > 0 {
				if nested, _ := yieldBody(c); nested != nil {
					continue // a loop in the body: its own body is judged on its own call
				}
				for _, t := range e.takesFirst(inner) {
					p, ok := ics.resolveLock(t.rp)
					if !ok {
						continue
					}
					if rp, ok := toRel(body, p); ok {
						takes = append(takes, firstTake{rp: rp, op: t.op, via: t.via})
					}
				}
			}
			if len(takes) > 0 && proto.Runner == RunnerCallback && guardedByParameter(body, b) {
				continue
			}
			for _, t := range takes {
				p, ok := cs.resolveLock(t.rp)
				if !ok || strings.Contains(p.Steps, "[") || reported[p.key()] {
					continue
				}
				for _, h := range held {
					if h.path.key() != p.key() || h.mode == Read && t.op.mode == Read && !e.writeLockedBeside(p, body) {
						continue
					}
					reported[p.key()] = true
					r := proto
					r.Fn, r.Call, r.Held, r.Taken = body, c.Pos(), h.pos, t.op.pos
					r.HeldMode, r.TakenMode, r.RWMutex, r.HeldSteps = h.mode, t.op.mode, t.op.rwmutex, h.steps
					for _, v := range t.via {
						r.Via = append(r.Via, v.Pos())
					}
					fs.reentries = append(fs.reentries, r)
				}
			}
		}
	}
}

// isFuncOfPackage returns a test of whether a value is a function of pkg
// or a closure of one.
func isFuncOfPackage(pkg *ssa.Package) func(ssa.Value) bool {
	return func(v ssa.Value) bool {
		switch v := v.(type) {
		case *ssa.MakeClosure:
			f, ok := v.Fn.(*ssa.Function)
			return ok && f.Pkg == pkg
		case *ssa.Function:
			return v.Pkg == pkg
		}
		return false
	}
}

// guardedByParameter reports whether block b of a callback runs only past
// a test of one of its parameters itself: a bool, or a comparison with
// nil or another constant. What the runner passes decides it, and a
// runner that calls back under its lock may pass what keeps b from
// running there (cb(nil) under the lock, cb(err) later without it).
func guardedByParameter(fn *ssa.Function, b *ssa.BasicBlock) bool {
	for _, t := range fn.Blocks {
		test, ok := t.Instrs[len(t.Instrs)-1].(*ssa.If)
		if !ok || !testsParameter(fn, test.Cond) {
			continue
		}
		for _, side := range t.Succs {
			if len(side.Preds) == 1 && side.Dominates(b) {
				return true
			}
		}
	}
	return false
}

// testsParameter reports whether cond is one of fn's parameters, its
// negation, or its comparison with a constant.
func testsParameter(fn *ssa.Function, cond ssa.Value) bool {
	isParam := func(v ssa.Value) bool {
		p, ok := v.(*ssa.Parameter)
		return ok && p.Parent() == fn
	}
	switch x := cond.(type) {
	case *ssa.Parameter:
		return isParam(x)
	case *ssa.UnOp:
		return x.Op == token.NOT && isParam(x.X)
	case *ssa.BinOp:
		if x.Op != token.EQL && x.Op != token.NEQ {
			return false
		}
		_, xc := x.X.(*ssa.Const)
		_, yc := x.Y.(*ssa.Const)
		return isParam(x.X) && yc || isParam(x.Y) && xc
	}
	return false
}

// heldKey reports whether the runner holds the lock k.
func heldKey(held []heldByRunner, k pathKey) bool {
	for _, h := range held {
		if h.path.key() == k {
			return true
		}
	}
	return false
}

// takesFirst returns the locks helper takes before any release
// (takenFirst), memoised.
func (e *engine) takesFirst(helper *ssa.Function) []firstTake {
	taken, seen := e.firstTakes[helper]
	if !seen {
		taken, _ = takenFirst(helper, 1)
		if e.firstTakes == nil {
			e.firstTakes = make(map[*ssa.Function][]firstTake)
		}
		e.firstTakes[helper] = taken
	}
	return taken
}

// returnsFunc reports whether fn's first result is a function: it may
// return an iterator.
func returnsFunc(fn *ssa.Function) bool {
	res := fn.Signature.Results()
	if res.Len() == 0 {
		return false
	}
	_, ok := res.At(0).Type().Underlying().(*types.Signature)
	return ok
}

// origin returns the generic function fn instantiates, or fn.
func origin(fn *ssa.Function) *ssa.Function {
	if fn != nil && fn.Origin() != nil {
		return fn.Origin()
	}
	return fn
}

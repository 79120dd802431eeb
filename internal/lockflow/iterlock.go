package lockflow

import (
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// An iterator that holds a lock while it yields runs the body of every
// range-over-func loop over it under that lock:
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
// The body taking the same lock is a reentry like a helper's (reentry.go),
// and is reported where the body takes it: on every run of the loop body
// the lock is held, since the iterator holds it at every call of yield.
// Only the iterator's own lock counts (not one its caller holds), and the
// body is judged as go/ssa built it: a function of its own, whose free
// variables are the loop's surroundings.

// iterLock is a lock an iterator holds while the loop body runs, relative
// to the iterator (or to a function returning it), and where it takes it.
type iterLock struct {
	lock    relLock
	rwmutex bool
	pos     token.Pos // NoPos when imported
}

// isYieldCall reports whether call calls one of fn's parameters that is a
// yield function (a func returning one bool): fn is an iterator running a
// loop body there.
func isYieldCall(fn *ssa.Function, call *ssa.Call) bool {
	p, ok := call.Call.Value.(*ssa.Parameter)
	if !ok || p.Parent() != fn {
		return false
	}
	sig, ok := p.Type().Underlying().(*types.Signature)
	if !ok || sig.Results().Len() != 1 {
		return false
	}
	b, ok := sig.Results().At(0).Type().Underlying().(*types.Basic)
	return ok && b.Kind() == types.Bool
}

// yieldLocks returns the locks fs's function takes itself and holds at
// every call of its yield parameter, relative to its inputs.
func (fs *funcState) yieldLocks() []iterLock {
	var out []iterLock
	for _, h := range fs.yieldHeld {
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
			out = append(out, iterLock{lock: relLock{path: rp, mode: h.mode}, rwmutex: fs.flow.ops[opener].rwmutex, pos: opener.Pos()})
		}
	}
	return out
}

// returnedIterLocks returns, for a function whose every return hands back
// an iterator closure of the package, the locks those iterators hold while
// the loop body runs, relative to the function's inputs (those all of them
// hold).
func (e *engine) returnedIterLocks(fn *ssa.Function) []iterLock {
	var out []iterLock
	first := true
	for _, b := range fn.Blocks {
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
		if !ok || g.Pkg != fn.Pkg {
			return nil
		}
		sum := e.summaryOf(g)
		if sum == nil {
			return nil
		}

		cs := &callSite{bindings: mc.Bindings}
		var these []iterLock
		for _, l := range sum.yieldLocks {
			p, ok := cs.resolveLock(l.lock.path)
			if !ok {
				continue
			}
			if rp, ok := toRel(fn, p); ok {
				these = append(these, iterLock{lock: relLock{path: rp, mode: l.lock.mode}, rwmutex: l.rwmutex, pos: l.pos})
			}
		}
		if first {
			out, first = these, false
			continue
		}
		var kept []iterLock
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

// heldByIterator is a lock an iterator holds while a loop body runs, in
// the terms of the function with the loop.
type heldByIterator struct {
	path Path
	mode Mode
	pos  token.Pos // the iterator's Lock or RLock; NoPos in another package
	// steps: for another package's iterator method, the lock's steps
	// from its receiver, to name it in the caller's terms.
	steps string
}

// iteratorLocks returns the locks the iterator v holds while it runs a
// loop body: v is a call of a function of the package returning an
// iterator, an iterator closure, or an iterator function.
func (e *engine) iteratorLocks(v ssa.Value) []heldByIterator {
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
	if fn == nil {
		return nil
	}
	if fn.Origin() != nil {
		fn = fn.Origin() // another package's generic method too: its fact is the origin's
	}
	var locks []iterLock
	switch {
	case fn.Pkg != e.pkg:
		if !returned || !e.external(fn) {
			return nil
		}
		if sum := e.importedSummary(fn); sum != nil {
			locks = sum.iterLocks
		}
	case len(fn.Blocks) == 0:
		return nil
	case returned:
		locks = e.returnedIterLocks(fn)
	default:
		if sum := e.summaryOf(fn); sum != nil {
			locks = sum.yieldLocks
		}
	}
	var out []heldByIterator
	for _, l := range locks {
		if p, ok := cs.resolveLock(l.lock.path); ok && !strings.Contains(p.Steps, "[") {
			h := heldByIterator{path: p, mode: l.lock.mode, pos: l.pos}
			if !l.pos.IsValid() && l.lock.path.param == 0 && l.lock.path.global == nil {
				h.steps = l.lock.path.steps
			}
			out = append(out, h)
		}
	}
	return out
}

// noteIteratorReentry records a Reentry where the body of the
// range-over-func loop that call runs takes a lock the iterator holds.
func (fs *funcState) noteIteratorReentry(call *ssa.Call) {
	body, mc := yieldBody(call)
	if body == nil || len(body.Blocks) == 0 {
		return
	}
	e := fs.e
	held := e.iteratorLocks(call.Call.Value)
	if len(held) == 0 || unlocksCallersLock(body) {
		return
	}
	cs := &callSite{instr: call}
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
			for _, t := range takes {
				p, ok := cs.resolveLock(t.rp)
				if !ok || strings.Contains(p.Steps, "[") || reported[p.key()] {
					continue
				}
				for _, h := range held {
					if h.path.key() != p.key() || h.mode == Read && t.op.mode == Read && !e.writeLocked(p) {
						continue
					}
					reported[p.key()] = true
					r := Reentry{Fn: body, Call: c.Pos(), Held: h.pos, Taken: t.op.pos, HeldMode: h.mode,
						TakenMode: t.op.mode, RWMutex: t.op.rwmutex, Iterator: iteratorPos(call), ByIterator: true, HeldSteps: h.steps}
					for _, v := range t.via {
						r.Via = append(r.Via, v.Pos())
					}
					fs.reentries = append(fs.reentries, r)
				}
			}
		}
	}
}

// heldKey reports whether the iterator holds the lock k.
func heldKey(held []heldByIterator, k pathKey) bool {
	for _, h := range held {
		if h.path.key() == k {
			return true
		}
	}
	return false
}

// iteratorPos returns the call that returned the loop's iterator, if it
// was one.
func iteratorPos(call *ssa.Call) token.Pos {
	if c, ok := call.Call.Value.(*ssa.Call); ok {
		return c.Pos()
	}
	return token.NoPos
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

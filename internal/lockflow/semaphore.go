package lockflow

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// Semaphores. A channel of capacity one that a function fills before its
// work and drains after it (`sem <- struct{}{}; defer func() { <-sem }()`,
// or a select that sends and gives up by default, the TryLock form) lets
// one holder in at a time: it is a mutex by another name. Like a claim, it
// names no state of its own, so it is an outer lock only: what runs while
// it is held cannot be raced by another holder, and a call made holding it
// is a locked call.
//
// A channel counts when it is an unexported field (or package variable)
// the package only ever sets to make(chan T, 1), no one closes or ranges
// over, whose receives are plain `<-ch` statements, and that at least one
// function both fills and drains: a wake-up channel of capacity one,
// filled by producers and drained by a consumer elsewhere, is not a lock.

// semaphoreVar returns the field or package variable a channel value was
// loaded from (the origin of a generic field), or nil.
func semaphoreVar(ch ssa.Value) any {
	load, ok := ch.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return nil
	}
	switch a := load.X.(type) {
	case *ssa.FieldAddr:
		if v := fieldVar(a.X.Type(), a.Field); v != nil && !v.Exported() {
			return v.Origin()
		}
	case *ssa.Global:
		if !a.Object().Exported() {
			return a
		}
	}
	return nil
}

// findSemaphores marks the channels of the package used as semaphores.
func (e *engine) findSemaphores(funcs []*ssa.Function) {
	type use struct {
		capOne, other bool // stores
		fills, drains map[*ssa.Function]bool
		disqualified  bool
	}
	uses := make(map[any]*use)
	get := func(v any) *use {
		u := uses[v]
		if u == nil {
			u = &use{fills: make(map[*ssa.Function]bool), drains: make(map[*ssa.Function]bool)}
			uses[v] = u
		}
		return u
	}
	// The function a deferred or in-place closure belongs to.
	owner := func(fn *ssa.Function) *ssa.Function {
		for fn.Parent() != nil {
			fn = fn.Parent()
		}
		return fn
	}
	for _, fn := range funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				switch x := instr.(type) {
				case *ssa.Store:
					var v any
					switch a := x.Addr.(type) {
					case *ssa.FieldAddr:
						if f := fieldVar(a.X.Type(), a.Field); f != nil {
							v = f.Origin()
						}
					case *ssa.Global:
						v = a
					}
					if v == nil {
						continue
					}
					if _, isChan := x.Val.Type().Underlying().(*types.Chan); !isChan {
						continue
					}
					if capacityOne(x.Val) {
						get(v).capOne = true
					} else {
						get(v).other = true
					}
				case *ssa.Send:
					if v := semaphoreVar(x.Chan); v != nil {
						get(v).fills[owner(fn)] = true
					}
				case *ssa.Select:
					for _, st := range x.States {
						v := semaphoreVar(st.Chan)
						if v == nil {
							continue
						}
						if st.Dir == types.SendOnly {
							get(v).fills[owner(fn)] = true
						} else {
							get(v).disqualified = true // waited on with others: a signal
						}
					}
				case *ssa.UnOp:
					if x.Op != token.ARROW {
						continue
					}
					if v := semaphoreVar(x.X); v != nil {
						if x.CommaOk || len(*x.Referrers()) > 0 {
							get(v).disqualified = true // its value is used: a message
						} else {
							get(v).drains[owner(fn)] = true
						}
					}
				case *ssa.Range:
					if v := semaphoreVar(x.X); v != nil {
						get(v).disqualified = true
					}
				case *ssa.Call:
					if bi, ok := x.Call.Value.(*ssa.Builtin); ok && bi.Name() == "close" && len(x.Call.Args) == 1 {
						if v := semaphoreVar(x.Call.Args[0]); v != nil {
							get(v).disqualified = true
						}
					}
				}
			}
		}
	}
	for v, u := range uses {
		if !u.capOne || u.other || u.disqualified {
			continue
		}
		for fn := range u.fills {
			if u.drains[fn] {
				if e.semaphores == nil {
					e.semaphores = make(map[any]bool)
				}
				e.semaphores[v] = true
				break
			}
		}
	}
}

// capacityOne reports whether v is make(chan T, 1).
func capacityOne(v ssa.Value) bool {
	mc, ok := v.(*ssa.MakeChan)
	if !ok {
		return false
	}
	c, ok := mc.Size.(*ssa.Const)
	if !ok || c.Value == nil {
		return false
	}
	n, exact := constInt(c)
	return exact && n == 1
}

func constInt(c *ssa.Const) (int64, bool) {
	if c.Value == nil {
		return 0, false
	}
	if b, ok := c.Type().Underlying().(*types.Basic); !ok || b.Info()&types.IsInteger == 0 {
		return 0, false
	}
	return c.Int64(), true
}

// semaphorePath names the pseudo-lock of the semaphore ch in the function
// at hand.
func semaphorePath(ch ssa.Value) Path {
	p := lockPathOf(ch)
	p.Steps += "<-;"
	return p
}

// semaphoreOp classifies a blocking send on a semaphore (taking it) and a
// receive from one (giving it back).
func (e *engine) semaphoreOp(instr ssa.Instruction) (lockOp, bool) {
	if e.semaphores == nil {
		return lockOp{}, false
	}
	var ch ssa.Value
	op := lockOp{mode: Write, claim: true, pos: instr.Pos()}
	switch x := instr.(type) {
	case *ssa.Send:
		ch, op.kind = x.Chan, opAcquire
	case *ssa.UnOp:
		if x.Op != token.ARROW {
			return lockOp{}, false
		}
		ch, op.kind = x.X, opRelease
	default:
		return lockOp{}, false
	}
	if v := semaphoreVar(ch); v == nil || !e.semaphores[v] {
		return lockOp{}, false
	}
	op.path = semaphorePath(ch)
	return op, true
}

// semaphoreEntries returns the blocks entered holding a semaphore a
// select took: the case of a select that sends on it, reached only from
// the branch that chose that case.
func (e *engine) semaphoreEntries(fn *ssa.Function) map[*ssa.BasicBlock]lockOp {
	if e.semaphores == nil {
		return nil
	}
	var out map[*ssa.BasicBlock]lockOp
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			sel, ok := instr.(*ssa.Select)
			if !ok {
				continue
			}
			for i, st := range sel.States {
				if st.Dir != types.SendOnly {
					continue
				}
				if v := semaphoreVar(st.Chan); v == nil || !e.semaphores[v] {
					continue
				}
				if body := chosenCase(sel, i); body != nil {
					if out == nil {
						out = make(map[*ssa.BasicBlock]lockOp)
					}
					out[body] = lockOp{kind: opAcquire, mode: Write, claim: true, path: semaphorePath(st.Chan), pos: sel.Pos()}
				}
			}
		}
	}
	return out
}

// chosenCase returns the block that runs when sel chooses its case i: the
// true side of `index == i` right after the select, when nothing else
// leads into it.
func chosenCase(sel *ssa.Select, i int) *ssa.BasicBlock {
	for _, r := range *sel.Referrers() {
		x, ok := r.(*ssa.Extract)
		if !ok || x.Index != 0 {
			continue
		}
		for _, r := range *x.Referrers() {
			cmp, ok := r.(*ssa.BinOp)
			if !ok || cmp.Op != token.EQL {
				continue
			}
			c, ok := cmp.Y.(*ssa.Const)
			if !ok {
				continue
			}
			if n, ok := constInt(c); !ok || n != int64(i) {
				continue
			}
			b := cmp.Block()
			if len(b.Succs) != 2 || ifCond(b) != cmp {
				continue
			}
			if body := b.Succs[0]; len(body.Preds) == 1 {
				return body
			}
		}
	}
	return nil
}

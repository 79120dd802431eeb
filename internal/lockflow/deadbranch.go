package lockflow

import (
	"go/constant"
	"go/token"

	"golang.org/x/tools/go/ssa"
)

// A branch no caller takes: when every call of a function passes the same
// constant for a boolean parameter, only the side of a test of that
// parameter the constant picks ever runs. A gap whose second section
// opens only on the other side never happens (a prompt for an interactive
// user that every caller turns off).

// onlyOnUntakenBranch reports whether g's function runs only where its
// package calls it, and g's second section opens only past a test of a
// boolean parameter that every call answers the other way.
func (e *engine) onlyOnUntakenBranch(g *Gap) bool {
	fn := g.Fn
	if g.BOpenInst == nil || !e.callsKnown(fn) {
		return false
	}
	open := g.BOpenInst.Block()
	for _, b := range fn.Blocks {
		test, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		p, negated := boolParameter(test.Cond)
		if p == nil || p.Parent() != fn {
			continue
		}
		value, ok := e.constantArgument(fn, paramIndex(fn, p))
		if !ok {
			continue
		}
		untaken := b.Succs[0] // If's successors: [true, false]
		if value != negated {
			untaken = b.Succs[1]
		}
		if len(untaken.Preds) == 1 && untaken.Dominates(open) {
			return true
		}
	}
	return false
}

// boolParameter returns the parameter a condition tests, and whether the
// test negates it.
func boolParameter(cond ssa.Value) (*ssa.Parameter, bool) {
	switch x := cond.(type) {
	case *ssa.Parameter:
		return x, false
	case *ssa.UnOp:
		if p, ok := x.X.(*ssa.Parameter); ok && x.Op == token.NOT {
			return p, true
		}
	}
	return nil, false
}

// constantArgument returns the boolean every call of fn in the package
// passes as its i-th parameter (the receiver first), when they all pass
// the same constant; there is at least one call.
func (e *engine) constantArgument(fn *ssa.Function, i int) (bool, bool) {
	calls := e.calls[fn]
	if i < 0 || len(calls) == 0 {
		return false, false
	}
	var value bool
	for n, c := range calls {
		call, ok := c.instr.(ssa.CallInstruction)
		if !ok || c.callback || i >= len(call.Common().Args) {
			return false, false
		}
		k, ok := call.Common().Args[i].(*ssa.Const)
		if !ok || k.Value == nil || k.Value.Kind() != constant.Bool {
			return false, false
		}
		v := constant.BoolVal(k.Value)
		if n > 0 && v != value {
			return false, false
		}
		value = v
	}
	return value, true
}

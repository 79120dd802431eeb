package mutexmapdelete

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// derivation tracks the values that are (or point into) entries of a map:
// what Load, LoadOrStore, a lookup return, and what is stored. It follows
// data flow forward through conversions, type assertions, phis, field
// addresses, local variables, closures, calls of package functions and
// their results.
type derivation struct {
	a    *analysis
	of   map[ssa.Value][]types.Object
	work []derived
}

type derived struct {
	v  ssa.Value
	id types.Object
}

func (d *derivation) has(v ssa.Value, id types.Object) bool {
	return slices.Contains(d.of[v], id)
}

func (d *derivation) add(v ssa.Value, id types.Object) {
	if v == nil || id == nil || d.has(v, id) {
		return
	}
	switch v.(type) {
	case *ssa.Const, *ssa.Function, *ssa.Global, *ssa.Builtin:
		return
	}
	d.of[v] = append(d.of[v], id)
	d.work = append(d.work, derived{v, id})
}

// seed adds the values read from and stored into every map.
func (d *derivation) seed() {
	for _, mi := range d.a.order {
		for _, s := range mi.sites {
			d.add(s.result, mi.id)
			if s.val != nil {
				d.add(unwrapIface(s.val), mi.id)
			}
		}
	}
}

func (d *derivation) run() {
	for len(d.work) > 0 {
		w := d.work[len(d.work)-1]
		d.work = d.work[:len(d.work)-1]
		refs := w.v.Referrers()
		if refs == nil {
			continue
		}
		for _, r := range *refs {
			d.step(w, r)
		}
	}
}

func (d *derivation) step(w derived, r ssa.Instruction) {
	switch x := r.(type) {
	case *ssa.Extract:
		if x.Index == 0 {
			d.add(x, w.id)
		}
	case *ssa.TypeAssert:
		d.add(x, w.id)
	case *ssa.ChangeInterface:
		d.add(x, w.id)
	case *ssa.ChangeType:
		d.add(x, w.id)
	case *ssa.MakeInterface:
		d.add(x, w.id)
	case *ssa.Phi:
		d.add(x, w.id)
	case *ssa.FieldAddr:
		d.add(x, w.id)
	case *ssa.Field:
		d.add(x, w.id)
	case *ssa.UnOp:
		if x.Op == token.MUL {
			if _, ok := w.v.(*ssa.Alloc); ok {
				d.add(x, w.id) // a local variable holding an entry
			}
		}
	case *ssa.Store:
		if x.Val == w.v {
			if alloc, ok := x.Addr.(*ssa.Alloc); ok {
				d.add(alloc, w.id)
			}
		}
	case *ssa.MakeClosure:
		fn, ok := x.Fn.(*ssa.Function)
		if !ok {
			return
		}
		for i, b := range x.Bindings {
			if b == w.v && i < len(fn.FreeVars) {
				d.add(fn.FreeVars[i], w.id)
			}
		}
	case *ssa.Return:
		fn := x.Parent()
		if _, isWrapper := d.a.wrappers[fn]; isWrapper {
			return // the call site stands for the wrapped map
		}
		for i, res := range x.Results {
			if res != w.v {
				continue
			}
			for _, call := range d.a.callers[fn] {
				v := call.Value()
				if v == nil {
					continue
				}
				if len(x.Results) == 1 {
					d.add(v, w.id)
					continue
				}
				if refs := v.Referrers(); refs != nil {
					for _, rr := range *refs {
						if ex, ok := rr.(*ssa.Extract); ok && ex.Index == i {
							d.add(ex, w.id)
						}
					}
				}
			}
		}
	case ssa.CallInstruction:
		c := x.Common()
		callee := d.a.staticCallee(c)
		if callee == nil {
			return
		}
		if _, isWrapper := d.a.wrappers[callee]; isWrapper {
			return // a wrapper's parameters hold every map's values
		}
		for i, arg := range c.Args {
			if arg == w.v && i < len(callee.Params) {
				d.add(callee.Params[i], w.id)
			}
		}
	}
}

// noteCallers indexes the calls of package functions.
func (a *analysis) noteCallers() {
	for _, fn := range a.funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(ssa.CallInstruction)
				if !ok {
					continue
				}
				if callee := a.staticCallee(call.Common()); callee != nil {
					a.callers[callee] = append(a.callers[callee], call)
				}
			}
		}
	}
}

package lockflow

import (
	"fmt"
	"go/token"
	"go/types"
	"os"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// Functions that run a function they are given in place: before they
// return, on the caller's goroutine, like a transaction helper
// (db.View(func(tx *Tx) error { ... })) or a wrapper around one. A closure
// handed to such a function is, for the call structure, called where it
// is handed over, as one handed to sort.Slice is (callsBack). The
// standard functions are known by name; the others are found from their
// bodies and exported as facts, so that a wrapper in one package around a
// helper in another is seen through.

// CallsInPlace marks a function that calls the function-typed parameters
// in Params (bit i for parameter i, the receiver first) only in place:
// each use of such a parameter is a call or deferred call of it, or hands
// it to a function that calls it in place, directly or in a closure that
// is itself so run.
type CallsInPlace struct {
	Params uint64
}

func (*CallsInPlace) AFact() {}

func (f *CallsInPlace) String() string {
	var args []string
	for i := 0; i < 64; i++ {
		if f.Params&(1<<i) != 0 {
			args = append(args, fmt.Sprintf("arg%d", i))
		}
	}
	return "calls " + strings.Join(args, ", ") + " in place"
}

// inPlaceParams returns fn's CallsInPlace bits: from its body when it is
// a function of this package, from its fact otherwise (all function
// arguments, for a standard function callsBack knows).
func (e *engine) inPlaceParams(fn *ssa.Function) uint64 {
	if o := fn.Origin(); o != nil {
		fn = o
	}
	if callsBack(fn) {
		return ^uint64(0)
	}
	if fn.Pkg != e.pkg || fn.Pkg == nil {
		obj, ok := fn.Object().(*types.Func)
		var f CallsInPlace
		if !ok || e.pass == nil || obj.Pkg() == nil || obj.Pkg() == e.pass.Pkg || standardPath(obj.Pkg().Path()) || !e.pass.ImportObjectFact(obj, &f) {
			return 0
		}
		return f.Params
	}
	if e.inPlace == nil {
		e.inPlace = make(map[*ssa.Function]uint64)
	}
	if bits, ok := e.inPlace[fn]; ok {
		return bits
	}
	e.inPlace[fn] = 0 // a cycle of calls proves nothing
	var bits uint64
	for i, p := range fn.Params {
		if i < 64 && isFuncType(p.Type()) && len(*p.Referrers()) > 0 && e.usedInPlace(p, 0) {
			bits |= 1 << i
		}
	}
	e.inPlace[fn] = bits
	return bits
}

// standardPath reports whether a package path looks like the standard
// library's (no dot in its first element). Its facts are not used: lockgap's
// driver does not analyse the standard library as a dependency, and go vet
// -vettool does, so the functions callsBack knows by name stand for it in
// both.
func standardPath(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".")
}

func isFuncType(t types.Type) bool {
	_, ok := t.Underlying().(*types.Signature)
	return ok
}

// usedInPlace reports whether every use of the function value v is a call
// or deferred call of it, a hand-over to a function that calls it in
// place, or a capture by a closure that is run in place and uses it so.
func (e *engine) usedInPlace(v ssa.Value, depth int) bool {
	if depth > 3 {
		return false
	}
	for _, r := range *v.Referrers() {
		switch x := r.(type) {
		case *ssa.Call:
			if !e.handsInPlace(x.Common(), v) {
				return false
			}
		case *ssa.Defer:
			if !e.handsInPlace(x.Common(), v) {
				return false
			}
		case *ssa.MakeClosure:
			if !e.capturedInPlace(x, v, depth, e.usedInPlace) {
				return false
			}
		case *ssa.Store:
			// A parameter a closure captures lives in a cell.
			if x.Val != v || !e.cellInPlace(x.Addr, v, depth+1) {
				return false
			}
		case *ssa.DebugRef:
		default:
			return false
		}
	}
	return true
}

// capturedInPlace reports whether the closure mc, capturing v, is run in
// place, and its body uses what it captured as uses says.
func (e *engine) capturedInPlace(mc *ssa.MakeClosure, v ssa.Value, depth int, uses func(ssa.Value, int) bool) bool {
	body, ok := mc.Fn.(*ssa.Function)
	if !ok || !e.usedInPlace(mc, depth+1) {
		return false
	}
	for i, b := range mc.Bindings {
		if b == v && !uses(body.FreeVars[i], depth+1) {
			return false
		}
	}
	return true
}

// cellInPlace reports whether the cell holding the function value v (a
// local, or a closure's captured variable) is only loaded, to values
// used in place, or captured by closures run in place that do the same;
// its one store is v's.
func (e *engine) cellInPlace(cell ssa.Value, v ssa.Value, depth int) bool {
	if _, ok := cell.(*ssa.Alloc); !ok || depth > 3 {
		return false
	}
	return e.cellUses(cell, v, depth)
}

func (e *engine) cellUses(cell ssa.Value, v ssa.Value, depth int) bool {
	for _, r := range *cell.Referrers() {
		switch x := r.(type) {
		case *ssa.Store:
			if x.Addr != cell || x.Val != v {
				return false
			}
		case *ssa.UnOp:
			if x.Op != token.MUL || !e.usedInPlace(x, depth+1) {
				return false
			}
		case *ssa.MakeClosure:
			if !e.capturedInPlace(x, cell, depth, func(fv ssa.Value, d int) bool { return e.cellUses(fv, v, d) }) {
				return false
			}
		case *ssa.DebugRef:
		default:
			return false
		}
	}
	return true
}

// handsInPlace reports whether the call c uses v only as the function it
// calls, or as arguments its callee calls in place.
func (e *engine) handsInPlace(c *ssa.CallCommon, v ssa.Value) bool {
	var bits uint64
	if callee := c.StaticCallee(); callee != nil && !c.IsInvoke() {
		bits = e.inPlaceParams(callee)
	}
	for i, a := range c.Args {
		if a == v && (i >= 64 || bits&(1<<i) == 0) {
			return false
		}
	}
	return true
}

// exportInPlace publishes the CallsInPlace fact of an exported function.
func (e *engine) exportInPlace(fn *ssa.Function) {
	obj, ok := fn.Object().(*types.Func)
	if !ok || !obj.Exported() || fn.Synthetic != "" || fn.Parent() != nil || e.pass == nil {
		return
	}
	if bits := e.inPlaceParams(fn); bits != 0 {
		if debugEnabled {
			fmt.Fprintf(os.Stderr, "in place %s: %b\n", fn, bits)
		}
		e.pass.ExportObjectFact(obj, &CallsInPlace{Params: bits})
	}
}

// wrapsInPlace reports whether the package, which takes no lock, may
// still have functions to mark: it uses another package's function that
// runs its argument in place, and declares an exported function with a
// function-typed parameter (a wrapper around a transaction helper).
func (e *engine) wrapsInPlace() bool {
	declares := false
	for id, obj := range e.pass.TypesInfo.Defs {
		fn, ok := obj.(*types.Func)
		if !ok || !fn.Exported() || strings.HasSuffix(e.pass.Fset.Position(id.Pos()).Filename, "_test.go") {
			continue
		}
		for v := range fn.Signature().Params().Variables() {
			if isFuncType(v.Type()) {
				declares = true
			}
		}
	}
	if !declares {
		return false
	}
	for _, obj := range e.pass.TypesInfo.Uses {
		fn, ok := obj.(*types.Func)
		if !ok || fn.Pkg() == nil || fn.Pkg() == e.pass.Pkg {
			continue
		}
		var f CallsInPlace
		if !standardPath(fn.Pkg().Path()) && e.pass.ImportObjectFact(fn.Origin(), &f) {
			return true
		}
	}
	return false
}

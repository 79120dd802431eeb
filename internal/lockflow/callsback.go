package lockflow

import (
	"fmt"
	"go/ast"
	"go/build"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/types/typeutil"
)

// Functions that call the function values they are given only before
// they return, on the caller's goroutine: a transaction helper's
// View(func(tx) error), a retry loop, a walk with a visitor. A closure
// handed to one runs there as if called in place, under the caller's
// locks and on the caller's goroutine (calledBack). The standard
// library's are listed (stdCallsBack); every other package's are found
// from its syntax, without SSA, so that a package that never touches
// sync still tells its dependents (a database wrapper's View over
// bbolt's), and exported as CallsBack facts.

// CallsBack marks a function or method that calls the parameters listed
// (by index, the receiver not counted) only synchronously: directly, in
// a deferred call, or by handing them to another such function.
type CallsBack struct {
	Params []int
}

func (*CallsBack) AFact() {}

func (f *CallsBack) String() string { return fmt.Sprintf("calls back %v", f.Params) }

// callbackUse is one use of a function-typed parameter: the path of
// nodes from the function's body down to the identifier.
type callbackUse []ast.Node

// findCallsBack returns the functions of the package that call back
// some of their function-typed parameters, and exports the facts.
func findCallsBack(pass *analysis.Pass) map[*types.Func][]int {
	if standardLibrary(pass) {
		// Known by name instead (stdCallsBack): lockgap's driver does not
		// analyse the standard library as a dependency, and go vet
		// -vettool does; both must see the same.
		return nil
	}
	type candidate struct {
		fn    *types.Func
		param int
		uses  []callbackUse
	}
	var cands []*candidate
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			decl, ok := d.(*ast.FuncDecl)
			if !ok || decl.Body == nil {
				continue
			}
			fn, _ := pass.TypesInfo.Defs[decl.Name].(*types.Func)
			if fn == nil {
				continue
			}
			sig := fn.Type().(*types.Signature)
			byVar := make(map[*types.Var]*candidate)
			for i := range sig.Params().Len() {
				p := sig.Params().At(i)
				if _, isFunc := p.Type().Underlying().(*types.Signature); !isFunc || sig.Variadic() && i == sig.Params().Len()-1 {
					continue
				}
				c := &candidate{fn: fn, param: i}
				byVar[p] = c
				cands = append(cands, c)
			}
			if len(byVar) == 0 {
				continue
			}
			var stack []ast.Node
			ast.Inspect(decl.Body, func(n ast.Node) bool {
				if n == nil {
					stack = stack[:len(stack)-1]
					return true
				}
				stack = append(stack, n)
				if id, ok := n.(*ast.Ident); ok {
					if v, ok := pass.TypesInfo.Uses[id].(*types.Var); ok && byVar[v] != nil {
						byVar[v].uses = append(byVar[v].uses, slices.Clone(stack))
					}
				}
				return true
			})
		}
	}
	// Every candidate calls back until one of its uses says otherwise:
	// functions that only hand a parameter to each other (a recursive
	// walk) call it back.
	found := make(map[*types.Func][]int)
	for _, c := range cands {
		if len(c.uses) > 0 { // one that ignores its function says nothing
			found[c.fn] = append(found[c.fn], c.param)
		}
	}
	calls := func(fn *types.Func, i int) bool {
		return slices.Contains(found[fn.Origin()], i) || importedCallsBack(pass, fn, i)
	}
	for changed := true; changed; {
		changed = false
		for _, c := range cands {
			if !slices.Contains(found[c.fn], c.param) {
				continue
			}
			if slices.ContainsFunc(c.uses, func(u callbackUse) bool { return !u.synchronous(pass.TypesInfo, calls) }) {
				found[c.fn] = slices.DeleteFunc(found[c.fn], func(i int) bool { return i == c.param })
				changed = true
			}
		}
	}
	for fn, params := range found {
		if len(params) == 0 {
			delete(found, fn)
			continue
		}
		slices.Sort(params)
		pass.ExportObjectFact(fn, &CallsBack{Params: params})
	}
	return found
}

// importedCallsBack reports whether fn, of another package, calls back
// its parameter i: a standard function known to, or one whose package
// said so.
func importedCallsBack(pass *analysis.Pass, fn *types.Func, i int) bool {
	if fn == nil || fn.Pkg() == nil {
		return false
	}
	fn = fn.Origin()
	if stdCallsBack(fn) {
		return true
	}
	var f CallsBack
	return fn.Pkg() != pass.Pkg && pass.ImportObjectFact(fn, &f) && slices.Contains(f.Params, i)
}

// synchronous reports whether the use only calls the parameter on the
// function's own goroutine before it returns: a call of it, or an
// argument to a function that calls that parameter back, made outside
// go statements and outside closures that may run later; or a
// comparison with nil.
func (u callbackUse) synchronous(info *types.Info, calls func(*types.Func, int) bool) bool {
	id := u[len(u)-1]
	i := len(u) - 2
	for i >= 0 {
		if _, ok := u[i].(*ast.ParenExpr); !ok {
			break
		}
		i--
	}
	if i < 0 {
		return false
	}
	switch p := u[i].(type) {
	case *ast.BinaryExpr:
		return (p.Op == token.EQL || p.Op == token.NEQ) && (isNilIdent(info, p.X) || isNilIdent(info, p.Y))
	case *ast.CallExpr:
		if !calledHere(info, p, id, calls) {
			return false
		}
		return u.runsInPlace(info, i, calls)
	}
	return false
}

// runsInPlace reports whether the call at u[i], and every function
// literal around it within the function, runs before the function
// returns on its goroutine: none is a go statement's call, and each
// literal is called right there or handed to a function that calls it
// back.
func (u callbackUse) runsInPlace(info *types.Info, i int, calls func(*types.Func, int) bool) bool {
	for ; i >= 0; i-- {
		switch n := u[i].(type) {
		case *ast.CallExpr:
			if i > 0 {
				if g, ok := u[i-1].(*ast.GoStmt); ok && g.Call == n {
					return false
				}
			}
		case *ast.FuncLit:
			j := i - 1
			for j >= 0 {
				if _, ok := u[j].(*ast.ParenExpr); !ok {
					break
				}
				j--
			}
			if j < 0 {
				return false
			}
			call, ok := u[j].(*ast.CallExpr)
			if !ok || !calledHere(info, call, n, calls) {
				return false
			}
		}
	}
	return true
}

// calledHere reports whether call calls f (as its function), or hands f
// to a function that calls that parameter back.
func calledHere(info *types.Info, call *ast.CallExpr, f ast.Node, calls func(*types.Func, int) bool) bool {
	if ast.Unparen(call.Fun) == f {
		return true
	}
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		if s := info.Selections[sel]; s != nil && s.Kind() == types.MethodExpr {
			return false // the receiver comes first among the arguments
		}
	}
	callee := typeutil.StaticCallee(info, call)
	for j, a := range call.Args {
		if ast.Unparen(a) == f {
			return callee != nil && calls(callee, j)
		}
	}
	return false
}

func isNilIdent(info *types.Info, e ast.Expr) bool {
	id, _ := ast.Unparen(e).(*ast.Ident)
	_, ok := info.Uses[id].(*types.Nil)
	return ok
}

// standardLibrary reports whether the package's files are those of the
// standard library, under GOROOT.
func standardLibrary(pass *analysis.Pass) bool {
	root := build.Default.GOROOT
	if root == "" || len(pass.Files) == 0 {
		return false
	}
	f := pass.Fset.File(pass.Files[0].Pos())
	return f != nil && strings.HasPrefix(filepath.ToSlash(f.Name()), filepath.ToSlash(filepath.Join(root, "src"))+"/")
}

// stdCallsBack reports whether a standard function calls the functions
// it is given only before it returns, on the caller's goroutine.
func stdCallsBack(obj *types.Func) bool {
	if obj.Pkg() == nil {
		return false
	}
	name := obj.Name()
	switch obj.Pkg().Path() {
	case "sync":
		return name == "Range" && obj.Type().(*types.Signature).Recv() != nil
	case "sort":
		return name == "Slice" || name == "SliceStable" || name == "Search" || name == "Find"
	case "slices":
		return strings.HasSuffix(name, "Func")
	case "runtime/pprof":
		return name == "Do"
	case "io/fs":
		return name == "WalkDir"
	case "path/filepath":
		return name == "Walk" || name == "WalkDir"
	}
	return false
}

// calledBack returns the closure of the package that call hands to a
// function calling it back before returning, on the caller's goroutine
// (sync.Map's Range, sort.Slice, a transaction helper's View), when the
// closure is made for that call alone: for the call structure it is
// called there, under whatever locks the caller holds.
func (e *engine) calledBack(call *ssa.Call) *ssa.Function {
	// Asked of every call: most hand over no closure.
	if !slices.ContainsFunc(call.Call.Args, func(a ssa.Value) bool { _, ok := a.(*ssa.MakeClosure); return ok }) {
		return nil
	}
	callee := call.Call.StaticCallee()
	if callee == nil || callee.Pkg == nil {
		return nil
	}
	obj, _ := callee.Object().(*types.Func)
	if o := callee.Origin(); o != nil {
		obj, _ = o.Object().(*types.Func)
	}
	if obj == nil {
		return nil
	}
	std := stdCallsBack(obj)
	offset := 0
	if callee.Signature.Recv() != nil {
		offset = 1 // the receiver comes first
	}
	for i, a := range call.Call.Args {
		mc, ok := a.(*ssa.MakeClosure)
		if !ok {
			continue
		}
		fn, ok := mc.Fn.(*ssa.Function)
		if !ok || len(*mc.Referrers()) != 1 {
			continue
		}
		if std || i >= offset && e.callsBackParam(obj, i-offset) {
			return fn
		}
	}
	return nil
}

// callsBackParam reports whether obj calls its parameter i back: found
// in this package, or said by its own.
func (e *engine) callsBackParam(obj *types.Func, i int) bool {
	if slices.Contains(e.callsBack[obj], i) {
		return true
	}
	return e.pass != nil && importedCallsBack(e.pass, obj, i)
}

package lockflow

import (
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// An exported method of an unexported type can be called from another
// package only on a value that package got hold of: from an exported
// function or method result, an exported field or variable, a struct
// embedding the type (which promotes the method), or an interface value.
// When the package offers none of these, its own calls are all the
// method's calls (as they are for an unexported function).

// hiddenMethod reports whether fn is an exported method of an unexported
// type of the package whose values no other package can obtain (for a
// generic type, values of none of its instances).
func (e *engine) hiddenMethod(fn *ssa.Function) bool {
	recv := fn.Signature.Recv()
	if recv == nil || fn.Pkg != e.pkg {
		return false
	}
	named, ok := types.Unalias(deref(recv.Type())).(*types.Named)
	// A package main's types, exported or not, no other package can name.
	main := e.pkg.Pkg.Name() == "main"
	if !ok || named.Obj().Exported() && !main || named.Obj().Pkg() != e.pkg.Pkg {
		return false
	}
	if e.hiddenTypes == nil {
		e.hiddenTypes = make(map[*types.TypeName]bool)
	}
	obj := named.Obj()
	if v, ok := e.hiddenTypes[obj]; ok {
		return v
	}
	v := e.typeHidden(named)
	e.hiddenTypes[obj] = v
	return v
}

func (e *engine) typeHidden(t *types.Named) bool {
	is := func(x types.Type) bool { return sameOrigin(deref(x), t) }
	// What a package main exports no other package can reach; what it
	// embeds or converts to interfaces still hands its methods on.
	exported := func(obj types.Object) bool { return obj.Exported() && e.pkg.Pkg.Name() != "main" }
	scope := e.pkg.Pkg.Scope()
	for _, name := range scope.Names() {
		obj := scope.Lookup(name)
		switch obj := obj.(type) {
		case *types.Func:
			if exported(obj) && resultsMention(obj.Signature(), t) {
				return false
			}
		case *types.Var:
			if exported(obj) && typeMentions(obj.Type(), t, 0) {
				return false
			}
		case *types.TypeName:
			if obj.IsAlias() && exported(obj) && typeMentions(obj.Type(), t, 0) {
				return false
			}
			n, ok := obj.Type().(*types.Named)
			if !ok {
				continue
			}
			// Fields: exported ones of any struct of the package (a value
			// of an unexported struct may be handed out too).
			if st, ok := n.Underlying().(*types.Struct); ok {
				for i := 0; i < st.NumFields(); i++ {
					f := st.Field(i)
					if f.Embedded() && is(f.Type()) || exported(f) && typeMentions(f.Type(), t, 0) {
						return false
					}
				}
			}
			if !exported(obj) {
				continue
			}
			for m := range n.Methods() {
				if exported(m) && resultsMention(m.Signature(), t) {
					return false
				}
			}
		}
	}
	for _, fn := range e.funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if mi, ok := instr.(*ssa.MakeInterface); ok && is(mi.X.Type()) {
					return false
				}
			}
		}
	}
	return true
}

// sameOrigin reports whether x is the named type t or an instance of the
// same generic type: a method of a generic type is one function for all
// its instances, so values of any of them are its receivers.
func sameOrigin(x types.Type, t *types.Named) bool {
	n, ok := types.Unalias(x).(*types.Named)
	return ok && n.Origin() == t.Origin()
}

func resultsMention(sig *types.Signature, t *types.Named) bool {
	for v := range sig.Results().Variables() {
		if typeMentions(v.Type(), t, 0) {
			return true
		}
	}
	return false
}

// typeMentions reports whether a value of type x can carry a t: x is t,
// or is built from it (pointers, containers, exported fields, functions
// returning it).
func typeMentions(x types.Type, t *types.Named, depth int) bool {
	if depth > 6 {
		return true
	}
	x = types.Unalias(x)
	if sameOrigin(x, t) {
		return true
	}
	switch u := x.(type) {
	case *types.Named:
		// Another named type: its own fields are checked where it is
		// declared; an instantiation may carry t in its type arguments.
		for a := range u.TypeArgs().Types() {
			if typeMentions(a, t, depth+1) {
				return true
			}
		}
		return false
	case *types.Pointer:
		return typeMentions(u.Elem(), t, depth+1)
	case *types.Slice:
		return typeMentions(u.Elem(), t, depth+1)
	case *types.Array:
		return typeMentions(u.Elem(), t, depth+1)
	case *types.Chan:
		return typeMentions(u.Elem(), t, depth+1)
	case *types.Map:
		return typeMentions(u.Key(), t, depth+1) || typeMentions(u.Elem(), t, depth+1)
	case *types.Signature:
		for v := range u.Results().Variables() {
			if typeMentions(v.Type(), t, depth+1) {
				return true
			}
		}
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			if f := u.Field(i); (f.Exported() || f.Embedded()) && typeMentions(f.Type(), t, depth+1) {
				return true
			}
		}
	}
	return false
}

// neverRuns reports whether fn is a method nothing can run on a type the
// package does use: the type is one no other package can get hold of and
// never becomes an interface value (hiddenMethod's test), code outside
// the type's own methods runs another of its methods (calls it, hands it
// out as a value or starts it), and nothing calls fn, hands it out or
// starts it. A type that only its own methods use is not judged: it is
// code not wired in yet, or an example, and its findings say what will
// happen once it is.
func (e *engine) neverRuns(fn *ssa.Function) bool {
	if !e.declaredMethod(fn) || e.escapes[fn] || len(e.started[fn]) > 0 || len(e.calls[fn]) > 0 || !e.hiddenMethod(fn) {
		return false
	}
	recv := types.Unalias(deref(fn.Signature.Recv().Type())).(*types.Named)
	obj := recv.Origin().Obj()
	if e.usedFromOutside == nil {
		e.usedFromOutside = make(map[*types.TypeName]map[*ssa.Function]bool)
	}
	used, ok := e.usedFromOutside[obj]
	if !ok {
		used = e.methodsUsedFromOutside(recv)
		e.usedFromOutside[obj] = used
	}
	for m := range used {
		if m != fn {
			return true
		}
	}
	return false
}

// methodsUsedFromOutside returns the declared methods of t that code
// outside t's own methods (and their closures) calls, starts, or takes as
// a value.
func (e *engine) methodsUsedFromOutside(t *types.Named) map[*ssa.Function]bool {
	ownMethod := func(f *ssa.Function) bool {
		r := f.Signature.Recv()
		return r != nil && sameOrigin(deref(r.Type()), t)
	}
	used := make(map[*ssa.Function]bool)
	var ops []*ssa.Value
	for _, f := range e.funcs {
		if ownMethod(outermost(f)) {
			continue
		}
		for _, b := range f.Blocks {
			for _, instr := range b.Instrs {
				for _, o := range instr.Operands(ops[:0]) {
					v, ok := (*o).(*ssa.Function)
					if !ok {
						continue
					}
					if d := e.declaredBehind(v); d != nil {
						v = d
					}
					if e.declaredMethod(v) && ownMethod(v) {
						used[v] = true
					}
				}
			}
		}
	}
	return used
}

// outermost returns the declared function a closure is nested in.
func outermost(f *ssa.Function) *ssa.Function {
	for f.Parent() != nil {
		f = f.Parent()
	}
	return f
}

// declaredMethod reports whether fn is a method as declared in the
// source (not a wrapper or a closure).
func (e *engine) declaredMethod(fn *ssa.Function) bool {
	return fn.Synthetic == "" && fn.Parent() == nil && fn.Signature.Recv() != nil
}

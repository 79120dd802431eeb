package lockflow

import (
	"fmt"
	"go/token"
	"go/types"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"weak"

	"golang.org/x/tools/go/ssa"
)

// A Path names a memory location as an access path: a root value followed
// by selection steps. Two paths with the same root and steps denote the
// same location in every execution of the function, which is what lets
// "d.mu" in two critical sections compare equal while "a.mu" and "b.mu" do
// not.
type Path struct {
	Root  ssa.Value // *ssa.Parameter, *ssa.FreeVar, *ssa.Global, *ssa.Alloc, or an opaque value
	Steps string    // encoded steps, each ending in ";", e.g. ".inner;*;.mu;"
}

// key identifies the path within one function.
func (p Path) key() pathKey { return pathKey{p.Root, p.Steps} }

type pathKey struct {
	root  ssa.Value
	steps string
}

// overlaps reports whether writing one of the locations may change what a
// read of the other observes: same root, and one step list a prefix of the
// other.
func (p Path) overlaps(q Path) bool {
	if p.Root == nil || q.Root == nil || p.Root != q.Root {
		return false
	}
	return strings.HasPrefix(p.Steps, q.Steps) || strings.HasPrefix(q.Steps, p.Steps)
}

// pathOf reduces an address or value to its access path. Conversions that
// do not change identity are looked through. Elements are not told apart:
// m[k1] and m[k2] may be the same entry.
func pathOf(v ssa.Value) Path { return accessPath(v, false) }

// lockPathOf is pathOf for lock operands, where elements must be told
// apart: locks[0] and locks[i] are different locks unless the indices are
// the same value.
func lockPathOf(v ssa.Value) Path { return accessPath(v, true) }

func elem(index ssa.Value, exact bool) string {
	if !exact {
		return "[];"
	}
	if c, ok := index.(*ssa.Const); ok {
		return "[" + c.String() + "];"
	}
	return fmt.Sprintf("[%p];", index)
}

func accessPath(v ssa.Value, exact bool) Path {
	var steps []string
	for {
		x, step, ok := selection(v, exact)
		if !ok {
			break
		}
		if step != "" {
			steps = append(steps, step)
		}
		v = x
	}
	var b strings.Builder
	for i := len(steps) - 1; i >= 0; i-- {
		b.WriteString(steps[i])
	}
	return unbox(Path{Root: v, Steps: b.String()})
}

// unbox names a location reached through the box a function keeps a
// parameter in when a closure captures it (c in a method with a deferred
// func() { ... c ... }) by the parameter itself, as everywhere else.
func unbox(p Path) Path {
	a, ok := p.Root.(*ssa.Alloc)
	if !ok || !strings.HasPrefix(p.Steps, "*;") {
		return p
	}
	if param := boxedParam(a); param != nil {
		return Path{Root: param, Steps: p.Steps[len("*;"):]}
	}
	return p
}

// boxes remembers which heap variables are boxes of a parameter (one
// scan of a variable's uses each, not one per use), without keeping any
// SSA alive: a package's entries go with its SSA.
var boxes = struct {
	sync.Mutex
	of map[weak.Pointer[ssa.Alloc]]weak.Pointer[ssa.Parameter] // the zero pointer: not a box
}{of: make(map[weak.Pointer[ssa.Alloc]]weak.Pointer[ssa.Parameter])}

// boxedParam returns the parameter a holds, if a is the heap box of a
// captured parameter that nothing assigns again: its one store is the
// parameter, and neither the function nor a closure capturing it stores
// to it.
func boxedParam(a *ssa.Alloc) *ssa.Parameter {
	if !a.Heap || a.Parent() == nil {
		return nil
	}
	key := weak.Make(a)
	boxes.Lock()
	v, ok := boxes.of[key]
	boxes.Unlock()
	if ok {
		return v.Value()
	}
	param := findBoxedParam(a)
	boxes.Lock()
	boxes.of[key] = weak.Make(param)
	boxes.Unlock()
	runtime.AddCleanup(a, func(k weak.Pointer[ssa.Alloc]) {
		boxes.Lock()
		delete(boxes.of, k)
		boxes.Unlock()
	}, key)
	return param
}

func findBoxedParam(a *ssa.Alloc) *ssa.Parameter {
	init, _, ok := soleStore(a)
	if !ok {
		return nil
	}
	p, ok := init.Val.(*ssa.Parameter)
	if !ok || p.Parent() != a.Parent() || init.Block() != a.Parent().Blocks[0] {
		return nil
	}
	return p
}

// soleStore returns the one store to the variable a, and the closures
// capturing it, when that store is its only assignment: the function
// otherwise only loads it, and the closures (and theirs) only load it.
func soleStore(a *ssa.Alloc) (init *ssa.Store, closures []*ssa.MakeClosure, ok bool) {
	for _, ref := range *a.Referrers() {
		switch x := ref.(type) {
		case *ssa.Store:
			if x.Addr != ssa.Value(a) || init != nil {
				return nil, nil, false
			}
			init = x
		case *ssa.UnOp:
			if x.Op != token.MUL {
				return nil, nil, false
			}
		case *ssa.MakeClosure:
			if !onlyLoaded(x, a, 0) {
				return nil, nil, false
			}
			closures = append(closures, x)
		case *ssa.DebugRef:
		default:
			return nil, nil, false
		}
	}
	return init, closures, init != nil
}

// onlyLoaded reports whether the closures mc makes only load the
// variable bound to box (and so on down nested closures).
func onlyLoaded(mc *ssa.MakeClosure, box ssa.Value, depth int) bool {
	fn, ok := mc.Fn.(*ssa.Function)
	if !ok || depth > 4 {
		return false
	}
	for i, b := range mc.Bindings {
		if b != box || i >= len(fn.FreeVars) {
			continue
		}
		fv := fn.FreeVars[i]
		for _, ref := range *fv.Referrers() {
			switch x := ref.(type) {
			case *ssa.UnOp:
				if x.Op != token.MUL {
					return false
				}
			case *ssa.MakeClosure:
				if !onlyLoaded(x, fv, depth+1) {
					return false
				}
			case *ssa.DebugRef:
			default:
				return false
			}
		}
	}
	return true
}

// selection undoes one step of an access path: for a field, element,
// map entry or pointee of x (or x converted without changing identity),
// it returns x and the encoded step ("" for a conversion).
func selection(v ssa.Value, exact bool) (x ssa.Value, step string, ok bool) {
	switch v := v.(type) {
	case *ssa.FieldAddr:
		return v.X, "." + fieldName(v.X.Type(), v.Field) + ";", true
	case *ssa.Field:
		return v.X, "." + fieldName(v.X.Type(), v.Field) + ";", true
	case *ssa.IndexAddr:
		return v.X, elem(v.Index, exact), true
	case *ssa.Index:
		return v.X, elem(v.Index, exact), true
	case *ssa.Lookup:
		return v.X, elem(v.Index, exact), true
	case *ssa.Extract:
		if l, ok := v.Tuple.(*ssa.Lookup); ok && v.Index == 0 {
			return l.X, elem(l.Index, exact), true
		}
	case *ssa.UnOp:
		if v.Op == token.MUL {
			return v.X, "*;", true
		}
	case *ssa.ChangeType:
		return v.X, "", true
	case *ssa.Slice:
		return v.X, "", true
	}
	return nil, "", false
}

// isShared reports whether the path may denote memory other goroutines
// see: rooted at a parameter, a captured variable, a package variable, or
// reached through a loaded pointer.
func (p Path) isShared(fn *ssa.Function) bool {
	switch p.Root.(type) {
	case *ssa.Parameter, *ssa.FreeVar, *ssa.Global:
		return true
	case *ssa.Alloc:
		return false
	case *ssa.Const:
		return false
	}
	// An opaque root (a call result, a phi) is shared only when something
	// was dereferenced on the way.
	return strings.ContainsAny(p.Steps, "*[.")
}

// fieldName names field i of the struct t (or *t) points to. Within one
// root, the struct type at each step is fixed, so names identify fields as
// well as indices do, and they render as the source wrote them.
func fieldName(t types.Type, i int) string {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	if s, ok := typeparamCore(t).(*types.Struct); ok && i < s.NumFields() {
		return s.Field(i).Name()
	}
	return "#" + strconv.Itoa(i)
}

// typeparamCore returns the underlying type, or for a type parameter the
// underlying type of its single-type constraint.
func typeparamCore(t types.Type) types.Type {
	if tp, ok := t.(*types.TypeParam); ok {
		if iface, ok := tp.Constraint().Underlying().(*types.Interface); ok && iface.NumEmbeddeds() == 1 {
			return iface.EmbeddedType(0).Underlying()
		}
	}
	return t.Underlying()
}

// String renders the path the way source code would spell it: root name,
// then fields; dereferences are implicit and elements show as [...].
func (p Path) String() string {
	var b strings.Builder
	switch r := p.Root.(type) {
	case *ssa.Parameter:
		b.WriteString(r.Name())
	case *ssa.FreeVar:
		b.WriteString(r.Name())
	case *ssa.Global:
		b.WriteString(r.Name())
	case *ssa.Alloc:
		if r.Comment != "" {
			b.WriteString(r.Comment)
		} else {
			b.WriteString("(local)")
		}
	default:
		b.WriteString("(value)")
	}
	b.WriteString(renderSteps(p.Steps))
	return b.String()
}

// renderSteps renders encoded steps as selectors: ".inner;*;.mu;" is
// ".inner.mu".
func renderSteps(steps string) string {
	var b strings.Builder
	for _, s := range strings.Split(steps, ";") {
		switch {
		case s == "" || s == "*":
		case strings.HasPrefix(s, "["):
			b.WriteString("[...]")
		default:
			b.WriteString(s)
		}
	}
	return b.String()
}

// inexactSteps turns the steps of a lock path (elements told apart) into
// those pathOf gives (every element "[];").
func inexactSteps(steps string) string {
	var b strings.Builder
	for steps != "" {
		if strings.HasPrefix(steps, "[") {
			end := strings.Index(steps, "];")
			if end < 0 {
				return b.String() + steps
			}
			b.WriteString("[];")
			steps = steps[end+2:]
			continue
		}
		end := strings.Index(steps, ";")
		if end < 0 {
			return b.String() + steps
		}
		b.WriteString(steps[:end+1])
		steps = steps[end+1:]
	}
	return b.String()
}

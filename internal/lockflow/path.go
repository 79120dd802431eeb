package lockflow

import (
	"fmt"
	"go/types"
	"strconv"
	"strings"

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
		switch x := v.(type) {
		case *ssa.FieldAddr:
			steps = append(steps, "."+fieldName(x.X.Type(), x.Field)+";")
			v = x.X
			continue
		case *ssa.Field:
			steps = append(steps, "."+fieldName(x.X.Type(), x.Field)+";")
			v = x.X
			continue
		case *ssa.IndexAddr:
			steps = append(steps, elem(x.Index, exact))
			v = x.X
			continue
		case *ssa.Index:
			steps = append(steps, elem(x.Index, exact))
			v = x.X
			continue
		case *ssa.Lookup:
			steps = append(steps, elem(x.Index, exact))
			v = x.X
			continue
		case *ssa.Extract:
			if l, ok := x.Tuple.(*ssa.Lookup); ok && x.Index == 0 {
				steps = append(steps, elem(l.Index, exact))
				v = l.X
				continue
			}
		case *ssa.UnOp:
			if x.Op.String() == "*" {
				steps = append(steps, "*;")
				v = x.X
				continue
			}
		case *ssa.ChangeType:
			v = x.X
			continue
		case *ssa.Slice:
			v = x.X
			continue
		}
		break
	}
	var b strings.Builder
	for i := len(steps) - 1; i >= 0; i-- {
		b.WriteString(steps[i])
	}
	return Path{Root: v, Steps: b.String()}
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

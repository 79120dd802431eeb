package mutexmapdelete

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// opKind is what a site does to a map.
type opKind uint8

const (
	opStore opKind = iota + 1
	opLoadOrStore
	opSwap
	opCompareAndSwap
	opLoad
	opDelete
	opLoadAndDelete
	opCompareAndDelete
	opClear
	opRange
	opDeleteBuiltin // delete(m, k)
	opUpdate        // m[k] = v
	opLookup        // m[k]
)

var syncMapMethods = map[string]opKind{
	"Store":            opStore,
	"LoadOrStore":      opLoadOrStore,
	"Swap":             opSwap,
	"CompareAndSwap":   opCompareAndSwap,
	"Load":             opLoad,
	"Delete":           opDelete,
	"LoadAndDelete":    opLoadAndDelete,
	"CompareAndDelete": opCompareAndDelete,
	"Clear":            opClear,
	"Range":            opRange,
}

func (k opKind) String() string {
	for name, kind := range syncMapMethods {
		if kind == k {
			return name
		}
	}
	switch k {
	case opDeleteBuiltin:
		return "delete"
	case opUpdate:
		return "assignment"
	case opLookup:
		return "lookup"
	}
	return "?"
}

// removes reports whether the operation takes an entry out of the map.
func (k opKind) removes() bool {
	switch k {
	case opDelete, opLoadAndDelete, opCompareAndDelete, opClear, opDeleteBuiltin:
		return true
	}
	return false
}

// replaces reports whether the operation may put a new value in place of
// an existing one.
func (k opKind) replaces() bool {
	return k == opStore || k == opSwap || k == opCompareAndSwap
}

// stores reports whether the operation puts a value into the map.
func (k opKind) stores() bool {
	switch k {
	case opStore, opLoadOrStore, opSwap, opCompareAndSwap, opUpdate:
		return true
	}
	return false
}

// looksUp reports whether the key of the operation is compared with the
// stored keys (the operations whose key can fail to match).
func (k opKind) looksUp() bool {
	switch k {
	case opLoad, opDelete, opLoadAndDelete, opCompareAndDelete:
		return true
	}
	return false
}

// site is one operation on a map whose identity is known.
type site struct {
	kind    opKind
	fn      *ssa.Function
	instr   ssa.Instruction
	id      types.Object // the map: a struct field or a package variable
	syncMap bool
	recv    ssa.Value // sync.Map: the receiver argument
	key     ssa.Value // nil for Clear, Range
	val     ssa.Value // the value stored, if any
	result  ssa.Value // the value read, if any (the call, or the lookup)
	pos     token.Pos // the call's '(' or the lookup's '['
	keyArg  int       // index of the key among the call's source arguments; -1 if none
	wrapper bool      // a call of a package function that forwards to a sync.Map method
}

// wrapperOp describes a package function that forwards one sync.Map
// operation to a map reached from one of its parameters.
type wrapperOp struct {
	kind                          opKind
	recvParam, keyParam, valParam int // valParam -1 when none
}

// identity reduces a map operand to the object naming the map: the
// (generic origin of the) struct field or the package variable holding
// it. Locals and parameters have no identity across functions.
func identity(v ssa.Value) types.Object {
	for {
		switch x := v.(type) {
		case *ssa.ChangeType:
			v = x.X
			continue
		case *ssa.FieldAddr:
			return fieldObj(x.X.Type(), x.Field)
		case *ssa.Field:
			return fieldObj(x.X.Type(), x.Field)
		case *ssa.Global:
			return x.Object()
		case *ssa.UnOp:
			if x.Op != token.MUL {
				return nil
			}
			switch y := x.X.(type) {
			case *ssa.FieldAddr:
				return fieldObj(y.X.Type(), y.Field)
			case *ssa.Global:
				return y.Object()
			}
		}
		return nil
	}
}

func fieldObj(t types.Type, i int) types.Object {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	s, ok := coreStruct(t)
	if !ok || i < 0 || i >= s.NumFields() {
		return nil
	}
	return s.Field(i).Origin()
}

func coreStruct(t types.Type) (*types.Struct, bool) {
	if tp, ok := types.Unalias(t).(*types.TypeParam); ok {
		iface, ok := tp.Constraint().Underlying().(*types.Interface)
		if !ok || iface.NumEmbeddeds() != 1 {
			return nil, false
		}
		t = iface.EmbeddedType(0)
	}
	s, ok := t.Underlying().(*types.Struct)
	return s, ok
}

// syncNamed reports whether t is the named type sync.<name>.
func syncNamed(t types.Type, names ...string) bool {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() != "sync" {
		return false
	}
	for _, name := range names {
		if n.Obj().Name() == name {
			return true
		}
	}
	return false
}

// isMutexPtr: *sync.Mutex or *sync.RWMutex.
func isMutexPtr(t types.Type) bool {
	p, ok := types.Unalias(t).(*types.Pointer)
	return ok && syncNamed(p.Elem(), "Mutex", "RWMutex")
}

// isEntryPtr reports whether t points to a struct that is a lock entry:
// it holds a sync.Mutex or sync.RWMutex (by value, possibly embedded) and
// otherwise only bookkeeping (numbers, flags, strings, times, atomics,
// other sync types). A struct with a payload is an object with its own
// lock (a connection, a cache entry); removing it from a map is ordinary.
func isEntryPtr(t types.Type) bool {
	p, ok := types.Unalias(t).(*types.Pointer)
	if !ok {
		return false
	}
	s, ok := p.Elem().Underlying().(*types.Struct)
	if !ok {
		return false
	}
	hasMutex := false
	for i := 0; i < s.NumFields(); i++ {
		ft := s.Field(i).Type()
		switch {
		case syncNamed(ft, "Mutex", "RWMutex"):
			hasMutex = true
		case bookkeeping(ft):
		default:
			return false
		}
	}
	return hasMutex
}

func bookkeeping(t types.Type) bool {
	switch u := types.Unalias(t).(type) {
	case *types.Basic:
		return true
	case *types.Named:
		if pkg := u.Obj().Pkg(); pkg != nil {
			switch pkg.Path() {
			case "sync", "sync/atomic":
				return true
			case "time":
				return u.Obj().Name() == "Time" || u.Obj().Name() == "Duration"
			}
		}
		if _, ok := u.Underlying().(*types.Basic); ok {
			return true
		}
	}
	return false
}

// lockValue reports whether a value of type t stored in a map makes it a
// map of locks: a mutex pointer, or a pointer to a lock entry.
func lockValue(t types.Type) (mutex, entry bool) {
	if isMutexPtr(t) {
		return true, false
	}
	return false, isEntryPtr(t)
}

// syncMapOp classifies a static call of a *sync.Map method.
func syncMapOp(c *ssa.CallCommon) (opKind, bool) {
	if c.IsInvoke() || len(c.Args) == 0 {
		return 0, false
	}
	callee := c.StaticCallee()
	if callee == nil {
		return 0, false
	}
	obj, ok := callee.Object().(*types.Func)
	if !ok || obj.Pkg() == nil || obj.Pkg().Path() != "sync" {
		return 0, false
	}
	recv := obj.Signature().Recv()
	if recv == nil {
		return 0, false
	}
	p, ok := recv.Type().(*types.Pointer)
	if !ok || !syncNamed(p.Elem(), "Map") {
		return 0, false
	}
	k, ok := syncMapMethods[obj.Name()]
	return k, ok
}

// dynamicType is the dynamic type a key has once converted to any, or nil
// when it is not known statically (an interface value, a type parameter).
func dynamicType(v ssa.Value) types.Type {
	if mi, ok := v.(*ssa.MakeInterface); ok {
		v = mi.X
	}
	if c, ok := v.(*ssa.Const); ok && c.Value == nil && types.IsInterface(c.Type()) {
		return nil
	}
	t := v.Type()
	if types.IsInterface(t) || hasTypeParam(t) {
		return nil
	}
	return t
}

func hasTypeParam(t types.Type) bool {
	switch u := types.Unalias(t).(type) {
	case *types.TypeParam:
		return true
	case *types.Named:
		if args := u.TypeArgs(); args != nil {
			for i := 0; i < args.Len(); i++ {
				if hasTypeParam(args.At(i)) {
					return true
				}
			}
		}
	case *types.Pointer:
		return hasTypeParam(u.Elem())
	case *types.Slice:
		return hasTypeParam(u.Elem())
	case *types.Array:
		return hasTypeParam(u.Elem())
	case *types.Map:
		return hasTypeParam(u.Key()) || hasTypeParam(u.Elem())
	case *types.Chan:
		return hasTypeParam(u.Elem())
	}
	return false
}

// unwrapIface looks through the implicit conversion to any.
func unwrapIface(v ssa.Value) ssa.Value {
	if mi, ok := v.(*ssa.MakeInterface); ok {
		return mi.X
	}
	return v
}

// mapType returns the map type of a plain map operand, if it is one.
func mapType(t types.Type) (*types.Map, bool) {
	m, ok := t.Underlying().(*types.Map)
	return m, ok
}

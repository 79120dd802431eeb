package lockflow

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// Dispatch tables: a package variable that maps a message type to the
// function handling it, filled once by the package's initialiser and only
// ever indexed and called,
//
//	var handlers = []func(*Session, header) error{typeData: (*Session).handleData, typePing: (*Session).handlePing}
//	func (s *Session) recvLoop() { for { ...; handlers[hdr.Type()](s, hdr) } }
//
// A function stored there is not handed to anyone: it runs wherever the
// table is called, as if each call of the table were a call of each of its
// functions (a method expression counting as its method). So the read loop
// that calls the table is the handlers' one caller, and what runs on its
// goroutine is known.

// dispatchTables holds what findDispatchTables finds: the functions of
// each table, the calls through it, and the instructions that store its
// functions (which hand nothing out).
type dispatchTables struct {
	funcs map[*ssa.Global][]*ssa.Function
	calls map[ssa.Instruction]*ssa.Global
	quiet map[ssa.Instruction]bool
}

// findDispatchTables finds the package's dispatch tables among its
// globals of map, slice or array of function type.
func (e *engine) findDispatchTables(funcs []*ssa.Function) *dispatchTables {
	dt := &dispatchTables{
		funcs: make(map[*ssa.Global][]*ssa.Function),
		calls: make(map[ssa.Instruction]*ssa.Global),
		quiet: make(map[ssa.Instruction]bool),
	}
	candidates := make(map[*ssa.Global]bool)
	for _, m := range e.pkg.Members {
		if g, ok := m.(*ssa.Global); ok && holdsFuncs(g) {
			candidates[g] = true
		}
	}
	if len(candidates) == 0 {
		return dt // most packages: no pass over their code
	}
	// A global keeps no list of its uses: gather them.
	uses := make(map[*ssa.Global][]ssa.Instruction)
	var ops []*ssa.Value
	scan := func(fn *ssa.Function) {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				for _, o := range instr.Operands(ops[:0]) {
					if g, ok := (*o).(*ssa.Global); ok && candidates[g] {
						uses[g] = append(uses[g], instr)
					}
				}
			}
		}
	}
	for _, fn := range funcs { // the package initialiser among them
		scan(fn)
	}
	for g, refs := range uses {
		e.noteDispatchTable(g, refs, dt)
	}
	return dt
}

// holdsFuncs reports whether the global is a map, slice or array whose
// elements are functions.
func holdsFuncs(g *ssa.Global) bool {
	var elem types.Type
	switch t := deref(g.Type()).Underlying().(type) {
	case *types.Map:
		elem = t.Elem()
	case *types.Slice:
		elem = t.Elem()
	case *types.Array:
		elem = t.Elem()
	default:
		return false
	}
	_, isFunc := elem.Underlying().(*types.Signature)
	return isFunc
}

// noteDispatchTable records g as a table when its initialiser fills it
// with functions and everything else only indexes it and calls what it
// finds (or tests it against nil, or takes its length).
func (e *engine) noteDispatchTable(g *ssa.Global, refs []ssa.Instruction, dt *dispatchTables) {
	var stored []*ssa.Function
	var quiet, calls []ssa.Instruction
	filled := false
	for _, ref := range refs {
		fn := ref.Parent()
		switch x := ref.(type) {
		case *ssa.Store:
			if x.Addr != g || fn.Synthetic != "package initializer" || filled {
				return
			}
			fs, q, ok := e.literalFuncs(x.Val)
			if !ok {
				return
			}
			filled = true
			stored = append(stored, fs...)
			quiet = append(quiet, q...)
		case *ssa.UnOp:
			if x.Op != token.MUL {
				return
			}
			c, ok := tableCalls(x)
			if !ok {
				return
			}
			calls = append(calls, c...)
		case *ssa.IndexAddr:
			// an array variable indexed in place: filled by the
			// initialiser element by element, or read and called
			if fn.Synthetic == "package initializer" {
				f, q, ok := e.storedTableFunc(x)
				if !ok {
					return
				}
				filled = true
				stored = append(stored, f)
				quiet = append(quiet, q...)
				continue
			}
			c, ok := loadedCalls(x)
			if !ok {
				return
			}
			calls = append(calls, c...)
		default:
			return
		}
	}
	if !filled || len(stored) == 0 {
		return
	}
	dt.funcs[g] = stored
	for _, q := range quiet {
		dt.quiet[q] = true
	}
	for _, c := range calls {
		dt.calls[c] = g
	}
}

// literalFuncs returns the functions of the map or slice literal v the
// initialiser stores in a table, and the instructions storing them; not
// ok when v is anything else or its elements are not all functions.
func (e *engine) literalFuncs(v ssa.Value) (funcs []*ssa.Function, quiet []ssa.Instruction, ok bool) {
	add := func(val ssa.Value, user ssa.Instruction) bool {
		f, q, ok := e.tableFunc(val, user)
		funcs, quiet = append(funcs, f), append(quiet, q...)
		return ok
	}
	switch x := v.(type) {
	case *ssa.MakeMap:
		for _, ref := range *x.Referrers() {
			switch r := ref.(type) {
			case *ssa.MapUpdate:
				if r.Map != x || !add(r.Value, r) {
					return nil, nil, false
				}
			case *ssa.Store:
				if r.Val != x {
					return nil, nil, false
				}
			case *ssa.DebugRef:
			default:
				return nil, nil, false
			}
		}
	case *ssa.Slice:
		a, isAlloc := x.X.(*ssa.Alloc)
		if !isAlloc || len(*x.Referrers()) != 1 {
			return nil, nil, false
		}
		for _, ref := range *a.Referrers() {
			switch r := ref.(type) {
			case *ssa.IndexAddr:
				f, q, ok := e.storedTableFunc(r)
				if !ok {
					return nil, nil, false
				}
				funcs, quiet = append(funcs, f), append(quiet, q...)
			case *ssa.Slice:
				if r != x {
					return nil, nil, false
				}
			case *ssa.DebugRef:
			default:
				return nil, nil, false
			}
		}
	default:
		return nil, nil, false
	}
	return funcs, quiet, true
}

// storedTableFunc returns the function the initialiser stores at the
// element address ia, and the instructions storing it.
func (e *engine) storedTableFunc(ia *ssa.IndexAddr) (*ssa.Function, []ssa.Instruction, bool) {
	refs := *ia.Referrers()
	if len(refs) != 1 {
		return nil, nil, false
	}
	st, ok := refs[0].(*ssa.Store)
	if !ok || st.Addr != ia {
		return nil, nil, false
	}
	return e.tableFunc(st.Val, st)
}

// tableFunc returns the function val is (the method of a method
// expression), stored by user, with the instructions handling it on
// the way (a conversion to a named func type).
func (e *engine) tableFunc(val ssa.Value, user ssa.Instruction) (*ssa.Function, []ssa.Instruction, bool) {
	quiet := []ssa.Instruction{user}
	if ct, ok := val.(*ssa.ChangeType); ok && len(*ct.Referrers()) == 1 {
		quiet = append(quiet, ct)
		val = ct.X
	}
	f, ok := val.(*ssa.Function)
	if !ok {
		return nil, nil, false
	}
	if f.Synthetic != "" {
		if f = e.declaredBehind(f); f == nil {
			return nil, nil, false
		}
	}
	return f, quiet, true
}

// tableCalls returns the calls of what is found in the table value load
// loaded; not ok when the value is used otherwise than indexed and
// called, tested against nil or measured.
func tableCalls(load *ssa.UnOp) ([]ssa.Instruction, bool) {
	var calls []ssa.Instruction
	for _, ref := range *load.Referrers() {
		var c []ssa.Instruction
		ok := true
		switch r := ref.(type) {
		case *ssa.Lookup:
			if !r.CommaOk {
				c, ok = callsOf(r)
				break
			}
			for _, u := range *r.Referrers() {
				ex, isExtract := u.(*ssa.Extract)
				switch {
				case !isExtract:
					ok = false
				case ex.Index == 0:
					found, fine := callsOf(ex)
					c, ok = append(c, found...), ok && fine
				}
			}
		case *ssa.IndexAddr:
			c, ok = loadedCalls(r)
		case *ssa.Index:
			c, ok = callsOf(r)
		case *ssa.Call:
			b, isBuiltin := r.Call.Value.(*ssa.Builtin)
			ok = isBuiltin && b.Name() == "len"
		case *ssa.DebugRef:
		default:
			ok = false
		}
		if !ok {
			return nil, false
		}
		calls = append(calls, c...)
	}
	return calls, true
}

// loadedCalls returns the calls of the function loaded from the element
// address ia.
func loadedCalls(ia *ssa.IndexAddr) ([]ssa.Instruction, bool) {
	var calls []ssa.Instruction
	for _, ref := range *ia.Referrers() {
		load, ok := ref.(*ssa.UnOp)
		if !ok || load.Op != token.MUL {
			return nil, false
		}
		c, ok := callsOf(load)
		if !ok {
			return nil, false
		}
		calls = append(calls, c...)
	}
	return calls, true
}

// callsOf returns the calls of the function value v; not ok when v is
// used otherwise than called or tested against nil.
func callsOf(v ssa.Value) ([]ssa.Instruction, bool) {
	var calls []ssa.Instruction
	for _, ref := range *v.Referrers() {
		switch r := ref.(type) {
		case *ssa.Call:
			if r.Call.Value != v || slices.Contains(r.Call.Args, v) {
				return nil, false
			}
			calls = append(calls, r)
		case *ssa.BinOp:
			if !isNil(r.X) && !isNil(r.Y) {
				return nil, false
			}
		case *ssa.DebugRef:
		default:
			return nil, false
		}
	}
	return calls, true
}

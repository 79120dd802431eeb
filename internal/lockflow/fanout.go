package lockflow

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// ownKeyOfFanOut reports whether the read r and the write w are a lookup
// and an update of one entry of a map local to the function that starts
// r's goroutine once per key of a range over a map (go, a group's Go),
// under that goroutine's own key: for dir := range dirs { g.Go(func()
// { ... broken[dir] ... }) }. Keys of a map are distinct, so each entry
// has one goroutine. When no one else writes the map once the goroutines
// run, and each of them writes it only under its own key, nothing can
// change the entry between r's section and w's.
func (fs *funcState) ownKeyOfFanOut(r *readSite, w *writeSite) bool {
	look, ok := r.instr.(*ssa.Lookup)
	up, ok2 := w.instr.(*ssa.MapUpdate)
	fn, e := fs.fn, fs.e
	if !ok || !ok2 || fn.Parent() == nil || e.escapes[fn] || len(e.calls[fn]) > 0 || len(e.started[fn]) != 1 {
		return false
	}
	start := e.started[fn][0]
	mc, ok := start.value.(*ssa.MakeClosure)
	if !ok || mc.Fn != fn || start.Parent() != fn.Parent() {
		return false
	}
	key, next := rangeKeyCell(mc, look.Index)
	if key == nil || cellOf(up.Key, mc) != key || !oncePerTurn(start.Block(), next) {
		return false
	}
	ranged := next.Iter.(*ssa.Range).X
	cell := capturedMap(look.X)
	if cell == nil || capturedMap(up.Map) != cell || cell.Parent() != start.Parent() || capturedMap(ranged) == cell {
		return false
	}
	// Only this goroutine, under its own key, writes the map once the
	// goroutines run; what the function starting them wrote before is
	// written before any of them reads.
	before := func(f *ssa.Function, instr ssa.Instruction) bool {
		return f == start.Parent() && cannotPrecede(start.instr, instr) || e.calledOnlyBefore(f, start)
	}
	if !mapWritesOnly(cell, func(f *ssa.Function, instr ssa.Instruction, k ssa.Value) bool {
		return before(f, instr) || f == fn && k != nil && cellOf(k, mc) == key
	}) {
		return false
	}
	// Nor is the ranged map changed while the loop runs, which could
	// hand out a key twice.
	if c := capturedMap(ranged); c != nil {
		return mapWritesOnly(c, func(f *ssa.Function, instr ssa.Instruction, _ ssa.Value) bool { return before(f, instr) })
	}
	refs := ranged.Referrers()
	if refs == nil {
		return false
	}
	for _, ref := range *refs {
		if changesMap(ref, ranged) && !before(start.Parent(), ref) {
			return false
		}
	}
	return true
}

// oncePerTurn reports whether the block b runs at most once in each turn
// of the range loop next steps, whose range runs once per call: no way
// from b back to b avoids the loop's header, and the range is in no
// outer loop (which would hand out each key again).
func oncePerTurn(b *ssa.BasicBlock, next *ssa.Next) bool {
	header := next.Block()
	if inLoop(next.Iter.(*ssa.Range).Block()) {
		return false
	}
	for _, s := range b.Succs {
		if s != header && reachesAvoiding(s, b, header) {
			return false
		}
	}
	return true
}

// rangeKeyCell returns the variable a load of v reads when v is the key
// of a range over a map, a per-iteration variable the closure mc
// captures, and the loop's step.
func rangeKeyCell(mc *ssa.MakeClosure, v ssa.Value) (*ssa.Alloc, *ssa.Next) {
	cell := cellOf(v, mc)
	if cell == nil || !inLoop(cell.Block()) {
		return nil, nil // one variable for all the loop's turns (before Go 1.22)
	}
	var stored ssa.Value
	for _, ref := range *cell.Referrers() {
		if st, ok := ref.(*ssa.Store); ok && st.Addr == cell {
			if stored != nil {
				return nil, nil
			}
			stored = st.Val
		}
	}
	x, ok := stored.(*ssa.Extract)
	if !ok || x.Index != 1 {
		return nil, nil
	}
	next, ok := x.Tuple.(*ssa.Next)
	if !ok || next.IsString {
		return nil, nil
	}
	if _, ok := next.Iter.(*ssa.Range); !ok {
		return nil, nil
	}
	return cell, next
}

// cellOf returns the variable of mc's function that v loads, when the
// closure mc's function reads it through a free variable mc binds to
// the variable itself and never stores to it.
func cellOf(v ssa.Value, mc *ssa.MakeClosure) *ssa.Alloc {
	ld, ok := v.(*ssa.UnOp)
	if !ok || ld.Op != token.MUL {
		return nil
	}
	fv, ok := ld.X.(*ssa.FreeVar)
	fn := mc.Fn.(*ssa.Function)
	if !ok || fv.Parent() != fn {
		return nil
	}
	for _, ref := range *fv.Referrers() {
		if _, ok := ref.(*ssa.UnOp); !ok {
			return nil
		}
	}
	for i, b := range fn.FreeVars {
		if b == fv && i < len(mc.Bindings) {
			cell, _ := mc.Bindings[i].(*ssa.Alloc)
			return cell
		}
	}
	return nil
}

// capturedMap returns the local variable v loads, directly or through a
// closure's free variable, or nil.
func capturedMap(v ssa.Value) *ssa.Alloc {
	ld, ok := v.(*ssa.UnOp)
	if !ok || ld.Op != token.MUL {
		return nil
	}
	return capturedRoot(ld.X)
}

// mapWritesOnly reports whether every write to the map held in the local
// variable cell, by its function or any closure of it, is one allowed
// accepts (with the key it writes, nil for one that replaces the map or
// empties it), and the map goes nowhere a write could escape this view.
func mapWritesOnly(cell *ssa.Alloc, allowed func(f *ssa.Function, instr ssa.Instruction, key ssa.Value) bool) bool {
	ok := true
	var visit func(f *ssa.Function)
	visit = func(f *ssa.Function) {
		var cells []ssa.Value
		if f == cell.Parent() {
			cells = append(cells, cell)
		}
		for _, fv := range f.FreeVars {
			if capturedRoot(fv) == cell {
				cells = append(cells, fv)
			}
		}
		for _, c := range cells {
			for _, ref := range *c.Referrers() {
				switch x := ref.(type) {
				case *ssa.Store:
					ok = ok && x.Addr == c && allowed(f, x, nil)
				case *ssa.UnOp:
					ok = ok && x.Op == token.MUL && mapUsesOnly(f, x, allowed)
				case *ssa.MakeClosure:
				default:
					ok = false
				}
			}
		}
		for _, anon := range f.AnonFuncs {
			visit(anon)
		}
	}
	visit(cell.Parent())
	return ok
}

// mapUsesOnly reports whether the map value m, in f, is only looked up,
// ranged over, measured, returned, or written where allowed accepts.
func mapUsesOnly(f *ssa.Function, m ssa.Value, allowed func(f *ssa.Function, instr ssa.Instruction, key ssa.Value) bool) bool {
	for _, ref := range *m.Referrers() {
		switch x := ref.(type) {
		case *ssa.Lookup, *ssa.Range:
		case *ssa.Return:
			if f.Parent() != nil {
				return false
			}
		case *ssa.MapUpdate:
			if x.Map != m || !allowed(f, x, x.Key) {
				return false
			}
		case *ssa.Call:
			b, isBuiltin := x.Call.Value.(*ssa.Builtin)
			switch {
			case !isBuiltin:
				return false
			case b.Name() == "delete":
				if !allowed(f, x, x.Call.Args[1]) {
					return false
				}
			case b.Name() == "clear":
				if !allowed(f, x, nil) {
					return false
				}
			case b.Name() != "len":
				return false
			}
		default:
			return false
		}
	}
	return true
}

// changesMap reports whether the instruction ref writes the map m.
func changesMap(ref ssa.Instruction, m ssa.Value) bool {
	switch x := ref.(type) {
	case *ssa.MapUpdate:
		return x.Map == m
	case *ssa.Call:
		b, ok := x.Call.Value.(*ssa.Builtin)
		return !ok || b.Name() == "delete" || b.Name() == "clear"
	case *ssa.Lookup, *ssa.Range:
		return false
	}
	return true
}

// calledOnlyBefore reports whether the closure f is made only in the
// function starting g, to be called there (handed to a call, not to a go
// or defer statement) before the go statement can run: a walk's callback.
func (e *engine) calledOnlyBefore(f *ssa.Function, g *goStart) bool {
	if f.Parent() != g.Parent() || len(e.started[f]) > 0 || len(f.AnonFuncs) > 0 {
		return false
	}
	made := false
	for _, b := range g.Parent().Blocks {
		for _, instr := range b.Instrs {
			if mc, ok := instr.(*ssa.MakeClosure); ok && mc.Fn == f {
				made = true
				if !e.calledBackBefore(mc, g) {
					return false
				}
			}
		}
	}
	return made
}

// calledBackBefore reports whether the closure value v is only called
// there, or handed to calls that call it back before they return (see
// callsBackParam: the package's own, other packages' by their facts, the
// standard library's by name), all where the go statement g cannot have
// run yet.
func (e *engine) calledBackBefore(v ssa.Value, g *goStart) bool {
	for _, ref := range *v.Referrers() {
		if conv, ok := ref.(*ssa.ChangeType); ok {
			// a named func type (fs.WalkDirFunc)
			if !e.calledBackBefore(conv, g) {
				return false
			}
			continue
		}
		call, ok := ref.(*ssa.Call)
		if !ok || !cannotPrecede(g.instr, call) {
			return false
		}
		if call.Call.Value == v {
			continue
		}
		callee := call.Call.StaticCallee()
		if callee == nil {
			return false
		}
		fn, _ := callee.Object().(*types.Func)
		if o := callee.Origin(); o != nil {
			fn, _ = o.Object().(*types.Func)
		}
		i := slices.Index(call.Call.Args, v)
		if callee.Signature.Recv() != nil {
			i-- // the receiver comes first
		}
		if fn == nil || i < 0 || !e.callsBackParam(fn, i) {
			return false
		}
	}
	return true
}

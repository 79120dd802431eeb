package lockflow

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// A sync.Map is a map with a lock inside: each method is a critical
// section of its own, so a Load whose answer decides a later Store is a
// check-then-act across two sections, as with any lock. The engine sees
// the methods as helpers with fixed summaries: the map itself names the
// lock, its entries (not told apart, as for a plain map) the state. The
// methods that test and write in one call (LoadOrStore, CompareAndSwap,
// CompareAndDelete, LoadAndDelete) re-check inside, like a helper that
// looks the entry up again before writing; so does Swap, which hands
// back what it replaced (a caller that swaps rather than stores means to
// replace whatever a racer put there).

// syncMapMethods holds the summaries, by method name; they are shared
// and never changed.
var syncMapMethods = func() map[string]*summary {
	self := relLock{path: relPath{param: 0}, mode: Write}
	entry := relPath{param: 0, steps: "[];"}
	read := []relRead{{loc: entry, lock: self, key: 2}} // looked up by the key, parameter 1
	write := func(kind writeKind, dataFrom []int, recheck bool) []relWrite {
		removal := kind != writeMapUpdate
		w := relWrite{loc: entry, lock: &self, kind: kind, collection: true, removal: removal, dataFrom: dataFrom,
			keyFrom: []int{1}, keyKnown: kind != writeClear}
		if recheck {
			w.guards = []relGuard{{loc: entry, existence: true, writeOnMissing: !removal}}
		}
		return []relWrite{w}
	}
	acquires := []relLock{self}
	store := write(writeMapUpdate, []int{2}, false)
	store[0].storedParam = 3 // the value, parameter 2, as is
	return map[string]*summary{
		"Load": {acquires: acquires, results: read},
		// Range's callback runs outside the map's lock, entry by entry.
		"Range":            {acquires: acquires},
		"Store":            {acquires: acquires, writes: store},
		"Swap":             {acquires: acquires, results: read, writes: write(writeMapUpdate, []int{2}, true)},
		"LoadOrStore":      {acquires: acquires, results: read, writes: write(writeMapUpdate, []int{2}, true)},
		"CompareAndSwap":   {acquires: acquires, writes: write(writeMapUpdate, []int{3}, true)},
		"Delete":           {acquires: acquires, writes: write(writeDelete, nil, false)},
		"LoadAndDelete":    {acquires: acquires, results: read, writes: write(writeDelete, nil, true)},
		"CompareAndDelete": {acquires: acquires, results: read, writes: write(writeDelete, nil, true)},
		"Clear":            {acquires: acquires, writes: write(writeClear, nil, false)},
	}
}()

// syncMapSummary returns the summary of a sync.Map method, or nil.
func syncMapSummary(obj *types.Func) *summary {
	sig := obj.Signature()
	if obj.Pkg() == nil || obj.Pkg().Path() != "sync" || sig.Recv() == nil {
		return nil
	}
	ptr, ok := sig.Recv().Type().(*types.Pointer)
	if !ok || !isNamed(ptr.Elem(), "sync", "Map") {
		return nil
	}
	return syncMapMethods[obj.Name()]
}

// isSyncMapCall reports whether instr calls a method of sync.Map.
func isSyncMapCall(instr ssa.Instruction) bool {
	c, ok := instr.(ssa.CallInstruction)
	if !ok {
		return false
	}
	f := c.Common().StaticCallee()
	if f == nil {
		return false
	}
	obj, ok := f.Object().(*types.Func)
	return ok && syncMapSummary(obj) != nil
}

// mutexMapGap reports whether g is between two calls on a sync.Map of
// per-key locks.
func (e *engine) mutexMapGap(g *Gap) bool {
	return isSyncMapCall(g.BOpenInst) && e.holdsMutexes(g.Lock)
}

// holdsMutexes reports whether some call in the package stores a
// *sync.Mutex or *sync.RWMutex in the sync.Map at p (named by its field
// or package variable): a map of per-key locks, whose entries' removal
// and replacement are mutexmapdelete's to judge.
func (e *engine) holdsMutexes(p Path) bool {
	name := fieldClass(p)
	if name == "" {
		return false
	}
	if e.mutexMaps == nil {
		e.mutexMaps = make(map[string]bool)
		userLocked := e.userLockedTypes()
		for _, fn := range e.funcs {
			for _, b := range fn.Blocks {
				for _, instr := range b.Instrs {
					c, ok := instr.(*ssa.Call)
					if !ok || !isSyncMapCall(c) || len(c.Call.Args) < 3 {
						continue
					}
					switch c.Call.StaticCallee().Name() {
					case "Store", "LoadOrStore", "Swap":
					default:
						continue
					}
					v := c.Call.Args[2]
					if mi, ok := v.(*ssa.MakeInterface); ok {
						v = mi.X
					}
					if ptr, ok := v.Type().Underlying().(*types.Pointer); ok &&
						(isNamed(ptr.Elem(), "sync", "Mutex") || isNamed(ptr.Elem(), "sync", "RWMutex") || userLocked[types.TypeString(ptr.Elem(), nil)]) {
						e.mutexMaps[fieldClass(pathOf(c.Call.Args[0]))] = true
					}
				}
			}
		}
	}
	return e.mutexMaps[name]
}

// syncMapClaim reports whether instr is a sync.Map call that reads the
// entry and writes it in one section (LoadAndDelete, LoadOrStore, Swap).
func syncMapClaim(instr ssa.Instruction) bool {
	c, ok := instr.(ssa.CallInstruction)
	if !ok || !isSyncMapCall(instr) {
		return false
	}
	s := syncMapSummary(c.Common().StaticCallee().Object().(*types.Func))
	return len(s.results) > 0 && len(s.writes) > 0
}

// claimedSince reports whether, after the stale read ri, a sync.Map call
// that reads and writes the same entry at once (a LoadOrStore putting a
// placeholder in, say) also decides the write: that call is the decision
// that counts, and it cannot be stale (encoding/json's encoder cache).
// The call need not follow the read on every way from it: it is enough
// that every way from the read to the write goes through it (a lookup
// made only on a cancel path that ends in continue, then a LoadOrStore
// claiming the entry for what follows).
func (fs *funcState) claimedSince(ri int, w *writeSite, decide bitset) bool {
	r := &fs.reads[ri]
	found := false
	decide.each(func(i int) {
		r2 := &fs.reads[i]
		if found || i == ri || r2.instr == nil || !syncMapClaim(r2.instr) && !fs.e.claimHelper(r2.instr) || r2.loc.key() != r.loc.key() {
			return
		}
		found = fs.dominates(r.instr, r2.instr) || fs.throughOnly(r.instr, r2.instr, w.instr)
	})
	return found
}

// claimHelper reports whether instr calls a function of the package
// whose one sync.Map call is a claim (a Claim method wrapping
// LoadOrStore): what it hands back was read in that call. Memoised per
// function: it is asked for every pair the gap search weighs.
func (e *engine) claimHelper(instr ssa.Instruction) bool {
	c, ok := instr.(*ssa.Call)
	if !ok || c.Call.IsInvoke() {
		return false
	}
	f := c.Call.StaticCallee()
	if f == nil || f.Pkg != e.pkg || len(f.Blocks) == 0 {
		return false
	}
	if v, ok := e.claimHelpers[f]; ok {
		return v
	}
	calls, claims := 0, 0
	for _, b := range f.Blocks {
		for _, x := range b.Instrs {
			if isSyncMapCall(x) {
				calls++
				if syncMapClaim(x) {
					claims++
				}
			}
		}
	}
	if e.claimHelpers == nil {
		e.claimHelpers = make(map[*ssa.Function]bool)
	}
	e.claimHelpers[f] = calls == 1 && claims == 1
	return e.claimHelpers[f]
}

// throughOnly reports whether every way from a to b (in fs's function)
// runs via first.
func (fs *funcState) throughOnly(a, via, b ssa.Instruction) bool {
	ab, vb, bb := a.Block(), via.Block(), b.Block()
	if ab == bb && fs.before(a, b) {
		return vb == ab && fs.before(a, via) && fs.before(via, b)
	}
	if vb == ab && fs.before(a, via) {
		return true // via runs before the block is left
	}
	seen := map[*ssa.BasicBlock]bool{}
	work := slices.Clone(ab.Succs)
	for len(work) > 0 {
		x := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[x] {
			continue
		}
		seen[x] = true
		if x == vb {
			if x == bb && fs.before(b, via) {
				return false
			}
			continue // via runs before anything past it
		}
		if x == bb {
			return false
		}
		work = append(work, x.Succs...)
	}
	return true
}

// isSyncMapPath reports whether the lock path p names a sync.Map (the
// lock of a gap whose second section a helper opens).
func isSyncMapPath(p Path) bool {
	t := walkPath(p, nil)
	return t != nil && isNamed(deref(t), "sync", "Map")
}

// metricChild reports whether v is what a Prometheus metric vector hands
// out for a set of labels (With, WithLabelValues, GetMetricWith...), or a
// struct of such children: the vector creates each child once and hands
// the same one to every caller, so a cache of children that two racers
// fill stores the same thing twice.
func metricChild(v ssa.Value, depth int) bool {
	if depth > 3 {
		return false
	}
	switch x := v.(type) {
	case *ssa.MakeInterface:
		return metricChild(x.X, depth+1)
	case *ssa.ChangeInterface:
		return metricChild(x.X, depth+1)
	case *ssa.Call:
		var name string
		var pkg *types.Package
		if x.Call.IsInvoke() {
			name, pkg = x.Call.Method.Name(), x.Call.Method.Pkg()
		} else if f := x.Call.StaticCallee(); f != nil && f.Object() != nil {
			name, pkg = f.Name(), f.Object().Pkg()
		}
		if pkg == nil || pkg.Path() != "github.com/prometheus/client_golang/prometheus" {
			return false
		}
		switch name {
		case "With", "WithLabelValues", "GetMetricWith", "GetMetricWithLabelValues":
			return true
		}
	case *ssa.UnOp:
		// A struct literal of children.
		a, ok := x.X.(*ssa.Alloc)
		if !ok || x.Op != token.MUL {
			return false
		}
		fields := 0
		for _, r := range *a.Referrers() {
			switch r := r.(type) {
			case *ssa.FieldAddr:
				for _, rr := range *r.Referrers() {
					st, ok := rr.(*ssa.Store)
					if !ok || st.Addr != r || !metricChild(st.Val, depth+1) {
						return false
					}
					fields++
				}
			case *ssa.UnOp, *ssa.DebugRef:
			default:
				return false
			}
		}
		return fields > 0
	}
	return false
}

// userLockedTypes names the struct types whose mutex field code other
// than the type's own methods locks: entries that serve as keyed locks
// (their users lock them), as mutexmapdelete sees them.
func (e *engine) userLockedTypes() map[string]bool {
	owned := make(map[string]bool)
	for _, fn := range e.funcs {
		top := fn
		for top.Parent() != nil {
			top = top.Parent()
		}
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if fa, ok := instr.(*ssa.FieldAddr); ok && lockHandedOut(fa) {
					// The entry's lock passed to a function that takes it.
					if ptr, ok := fa.X.Type().Underlying().(*types.Pointer); ok {
						owned[types.TypeString(ptr.Elem(), nil)] = true
					}
					continue
				}
				c, ok := instr.(ssa.CallInstruction)
				if !ok {
					continue
				}
				op, ok := syncLockOp(c.Common())
				if !ok || op.kind != opAcquire || c.Common().IsInvoke() {
					continue
				}
				fa, ok := c.Common().Args[0].(*ssa.FieldAddr)
				if !ok {
					continue
				}
				if recv := top.Signature.Recv(); recv != nil && types.Identical(recv.Type(), fa.X.Type()) {
					continue // the type locking itself
				}
				if ptr, ok := fa.X.Type().Underlying().(*types.Pointer); ok {
					owned[types.TypeString(ptr.Elem(), nil)] = true
				}
			}
		}
	}
	return owned
}

// lockHandedOut reports whether fa addresses a sync.Mutex or RWMutex
// field and hands it to a function other than its own methods.
func lockHandedOut(fa *ssa.FieldAddr) bool {
	if _, ok := lockPointee(fa.Type()); !ok {
		return false
	}
	for _, r := range *fa.Referrers() {
		c, ok := r.(ssa.CallInstruction)
		if !ok {
			continue
		}
		if _, isLockOp := syncLockOp(c.Common()); isLockOp {
			continue
		}
		for _, a := range c.Common().Args {
			if a == fa {
				return true
			}
		}
	}
	return false
}

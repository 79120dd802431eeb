package lockflow

import (
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// Claim maps. A map field used as a set of taken keys is a lock by
// another name: a claim inserts the key, under a mutex, after testing in
// the same function that it is absent and bailing out when it is present;
// a release deletes it. Whoever holds the claim runs alone for that key,
// so the engine treats the span from claim to release as a critical
// section of a pseudo-lock named after the field. Such sections serialise
// what runs inside them (an outer lock); they are never the lock of a gap.

// claimOf names the pseudo-lock of a claim map field.
func claimOf(f *types.Var) Path {
	return Path{Steps: "claim:" + f.Pkg().Path() + "." + f.Name() + ";"}
}

// findClaims marks the claim inserts of the package, and the functions
// that claim a key for their caller (insert and return holding it) or
// release one (delete it).
func (e *engine) findClaims(funcs []*ssa.Function) {
	e.claimInserts = make(map[ssa.Instruction]*types.Var)
	e.claimers = make(map[*ssa.Function]*types.Var)
	e.releasers = make(map[*ssa.Function]*types.Var)
	claimed := make(map[*types.Var]bool)
	inserts := make(map[*ssa.Function]*types.Var)
	notClaims := make(map[*types.Var]bool) // busy flags also set without a test
	for _, fn := range funcs {
		locks := e.hasLockCalls(fn)
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				switch x := instr.(type) {
				case *ssa.MapUpdate:
					if f := mapField(x.Map); locks && f != nil && f.Pkg() == e.pkg.Pkg && insertsIfAbsent(x, f) {
						e.claimInserts[x] = f
						claimed[f] = true
						inserts[fn] = f
					}
				case *ssa.Store:
					if fa, ok := x.Addr.(*ssa.FieldAddr); ok {
						if _, fresh := fa.X.(*ssa.Alloc); fresh {
							continue // a new object's initial value: no one else holds it yet
						}
					}
					f, set := busyFlagStore(x)
					if f == nil {
						if g := boolFieldStored(x); g != nil {
							notClaims[g] = true // set to a value computed: maybe true, untested
						}
						continue
					}
					if f.Pkg() != e.pkg.Pkg || f.Exported() || !set {
						continue
					}
					if locks && setsIfUnset(x, f) {
						e.claimInserts[x] = f
						claimed[f] = true
						inserts[fn] = f
					} else {
						notClaims[f] = true
					}
				}
			}
		}
	}
	for u, f := range e.claimInserts {
		if notClaims[f] {
			delete(e.claimInserts, u)
			delete(claimed, f)
		}
	}
	for fn, f := range inserts {
		if notClaims[f] {
			delete(inserts, fn)
		}
	}
	if len(claimed) == 0 {
		return
	}
	deletes := make(map[*ssa.Function]*types.Var)
	released := make(map[*types.Var]bool)
	for _, fn := range funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				f := claimDelete(instr)
				if g, set := busyFlagStore(instr); g != nil && !set {
					f = g
				}
				if f != nil && claimed[f] {
					deletes[fn] = f
					released[f] = true
				}
			}
		}
	}
	// A key inserted if absent and never deleted is a cache filled on
	// first use, not a claim.
	for u, f := range e.claimInserts {
		if !released[f] {
			delete(e.claimInserts, u)
		}
	}
	for fn, f := range inserts {
		if !released[f] {
			delete(inserts, fn)
		}
	}
	e.claimFields = make(map[*types.Var]bool)
	for _, f := range e.claimInserts {
		e.claimFields[f] = true
	}
	for _, fn := range funcs {
		deleted := deletes[fn]
		switch {
		case deleted != nil && inserts[fn] == nil:
			e.releasers[fn] = deleted
		case deleted == nil && inserts[fn] != nil:
			e.claimers[fn] = inserts[fn]
		}
	}
}

// claimOp classifies instr as taking or dropping a claim, directly or by
// calling a function that does, or a per-key lock.
func (e *engine) claimOp(instr ssa.Instruction) (lockOp, bool) {
	if c, ok := instr.(*ssa.Call); ok {
		if op, ok := keyedLockOp(c.Common()); ok {
			return op, true
		}
	}
	op := lockOp{mode: Write, claim: true, pos: instr.Pos()}
	var f *types.Var
	if g, ok := e.claimInserts[instr]; ok {
		op.kind, f = opAcquire, g
	} else if g, set := busyFlagStore(instr); g != nil && !set && e.claimed(g) {
		op.kind, f = opRelease, g
	} else if c, ok := instr.(*ssa.Call); ok {
		if g := claimDelete(c); g != nil && e.claimed(g) {
			op.kind, f = opRelease, g
		} else if callee, _ := calleeOf(e.pkg, c); callee != nil {
			if g := e.claimers[callee]; g != nil {
				op.kind, f = opAcquire, g
			} else if g := e.releasers[callee]; g != nil {
				op.kind, f = opRelease, g
			}
		}
	}
	if f == nil {
		return lockOp{}, false
	}
	op.path = claimOf(f)
	return op, true
}

func (e *engine) claimed(f *types.Var) bool { return e.claimFields[f] }

// Busy flags. A bool field that is set only where a test of it, in the
// same function, found it unset and gave up otherwise (returned an
// error, or waited and tested again), and that is cleared elsewhere, is
// a claim too: one receiver at a time, one goroutine pumping a sink. As
// with a claim map, the holder runs alone; objects are not told apart.

// busyFlagStore returns the bool field instr stores a constant in, and
// whether it sets it (true) or clears it (false); nil for any other
// instruction, and for the fields of an object the function has just
// allocated (a composite literal's).
func busyFlagStore(instr ssa.Instruction) (*types.Var, bool) {
	st, ok := instr.(*ssa.Store)
	if !ok {
		return nil, false
	}
	fa, ok := st.Addr.(*ssa.FieldAddr)
	if !ok {
		return nil, false
	}
	if _, fresh := fa.X.(*ssa.Alloc); fresh {
		return nil, false
	}
	c, ok := st.Val.(*ssa.Const)
	if !ok || c.Value == nil || c.Value.Kind() != constant.Bool {
		return nil, false
	}
	f := fieldVar(fa.X.Type(), fa.Field)
	if f == nil {
		return nil, false
	}
	return f, constant.BoolVal(c.Value)
}

// boolFieldStored returns the bool field the store st writes, whatever
// the value; nil when it writes something else.
func boolFieldStored(st *ssa.Store) *types.Var {
	fa, ok := st.Addr.(*ssa.FieldAddr)
	if !ok {
		return nil
	}
	f := fieldVar(fa.X.Type(), fa.Field)
	if f == nil {
		return nil
	}
	if b, ok := f.Type().Underlying().(*types.Basic); ok && b.Kind() == types.Bool {
		return f
	}
	return nil
}

// setsIfUnset reports whether the store st, setting the busy flag f,
// runs only after a branch on f's value in the same object whose set
// side gives up: it never joins the way through st (looping back to the
// test is giving up too), as insertsIfAbsent asks of a claim map's insert.
func setsIfUnset(st *ssa.Store, f *types.Var) bool {
	obj := pathOf(st.Addr.(*ssa.FieldAddr).X).key()
	var after map[*ssa.BasicBlock]bool
	depth := 0
	for b := st.Block().Idom(); b != nil && depth < 16; b, depth = b.Idom(), depth+1 {
		cond := ifCond(b)
		if cond == nil {
			continue
		}
		negated, load, ok := testsFlag(cond, f, obj)
		if !ok || unlocksBetween(load, st) {
			continue // a test in an earlier section claims nothing
		}
		set := b.Succs[0] // where the flag was found set
		if negated {
			set = b.Succs[1]
		}
		if after == nil {
			after = afterInstr(st)
		}
		if !reaches(set, st.Block()) || !joins(set, after, b) {
			return true
		}
	}
	return false
}

// testsFlag reports whether cond is the value of the flag f of the object
// obj names, loaded (load), or its negation (negated).
func testsFlag(cond ssa.Value, f *types.Var, obj pathKey) (negated bool, load *ssa.UnOp, ok bool) {
	for range 4 {
		not, isNot := cond.(*ssa.UnOp)
		if !isNot || not.Op != token.NOT {
			break
		}
		cond, negated = not.X, !negated
	}
	load, isLoad := cond.(*ssa.UnOp)
	if !isLoad || load.Op != token.MUL {
		return false, nil, false
	}
	fa, isField := load.X.(*ssa.FieldAddr)
	if !isField || fieldVar(fa.X.Type(), fa.Field) != f || pathOf(fa.X).key() != obj {
		return false, nil, false
	}
	return negated, load, true
}

// unlocksBetween reports whether a sync lock may be released on some way
// from the instruction from to the instruction to, in one function.
func unlocksBetween(from, to ssa.Instruction) bool {
	releases := func(instr ssa.Instruction) bool {
		c, ok := instr.(*ssa.Call)
		if !ok {
			return false
		}
		op, ok := syncLockOp(c.Common())
		return ok && op.kind == opRelease
	}
	fb, tb := from.Block(), to.Block()
	if fb == tb && !inLoop(fb) {
		started := false
		for _, instr := range fb.Instrs {
			switch {
			case instr == from:
				started = true
			case instr == to:
				return false
			case started && releases(instr):
				return true
			}
		}
	}
	// Every block on a way from fb to tb, the two ends included in full.
	for _, b := range fb.Parent().Blocks {
		if (b == fb || reaches(fb, b)) && (b == tb || reaches(b, tb)) {
			for _, instr := range b.Instrs {
				if releases(instr) {
					return true
				}
			}
		}
	}
	return false
}

// claimDelete returns the map field a delete(x.f, k) removes from.
func claimDelete(instr ssa.Instruction) *types.Var {
	c, ok := instr.(*ssa.Call)
	if !ok {
		return nil
	}
	if bi, ok := c.Call.Value.(*ssa.Builtin); !ok || bi.Name() != "delete" || len(c.Call.Args) != 2 {
		return nil
	}
	return mapField(c.Call.Args[0])
}

// mapField returns the struct field a map value was loaded from.
func mapField(v ssa.Value) *types.Var {
	load, ok := v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return nil
	}
	fa, ok := load.X.(*ssa.FieldAddr)
	if !ok {
		return nil
	}
	return fieldVar(fa.X.Type(), fa.Field)
}

// insertsIfAbsent reports whether the map update u of field f is made only
// after a branch on "key present" (a comma-ok lookup of the same key in
// the same field) whose present side gives up: it never joins the path
// through u (a retry that loops back to the lookup is giving up too).
// A get-or-create, whose two sides meet again, is not a claim.
func insertsIfAbsent(u *ssa.MapUpdate, f *types.Var) bool {
	key := pathOf(u.Key).key()
	var after map[*ssa.BasicBlock]bool
	// The test sits close above the insert; a bounded walk keeps a long
	// function linear.
	depth := 0
	for b := u.Block().Idom(); b != nil && depth < 16; b, depth = b.Idom(), depth+1 {
		cond := ifCond(b)
		if cond == nil || !testsPresence(cond, f, key) {
			continue
		}
		if after == nil {
			after = afterInstr(u)
		}
		for _, succ := range b.Succs {
			if !reaches(succ, u.Block()) || !joins(succ, after, b) {
				return true
			}
		}
	}
	return false
}

// afterInstr lists the blocks that can run after u's block.
func afterInstr(u ssa.Instruction) map[*ssa.BasicBlock]bool {
	out := make(map[*ssa.BasicBlock]bool)
	stack := append([]*ssa.BasicBlock(nil), u.Block().Succs...)
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if !out[b] {
			out[b] = true
			stack = append(stack, b.Succs...)
		}
	}
	return out
}

// joins reports whether from reaches a block of after without passing
// through stop (the branch itself: looping back to it is a retry).
func joins(from *ssa.BasicBlock, after map[*ssa.BasicBlock]bool, stop *ssa.BasicBlock) bool {
	seen := map[*ssa.BasicBlock]bool{stop: true}
	stack := []*ssa.BasicBlock{from}
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[b] {
			continue
		}
		seen[b] = true
		if after[b] {
			return true
		}
		stack = append(stack, b.Succs...)
	}
	return false
}

// testsPresence reports whether cond is, through negations and boolean
// joins, the "found" result of looking key up in field f. A phi is
// followed again only when met nearer to cond than before (the walk is
// bounded in depth): the joins of a long state machine's loop would
// otherwise be walked again along every path to them.
func testsPresence(cond ssa.Value, f *types.Var, key pathKey) bool {
	var seen map[*ssa.Phi]int // the least depth each phi was followed at; made at the first phi
	var tests func(v ssa.Value, depth int) bool
	tests = func(v ssa.Value, depth int) bool {
		if depth > 6 {
			return false
		}
		switch x := v.(type) {
		case *ssa.UnOp:
			return x.Op == token.NOT && tests(x.X, depth+1)
		case *ssa.Phi:
			if d, ok := seen[x]; ok && d <= depth {
				return false
			}
			if seen == nil {
				seen = make(map[*ssa.Phi]int)
			}
			seen[x] = depth
			for _, e := range x.Edges {
				if tests(e, depth+1) {
					return true
				}
			}
		case *ssa.Extract:
			l, ok := x.Tuple.(*ssa.Lookup)
			return ok && x.Index == 1 && l.CommaOk && mapField(l.X) == f && pathOf(l.Index).key() == key
		}
		return false
	}
	return tests(cond, 0)
}

// reaches reports whether to can be reached from from.
func reaches(from, to *ssa.BasicBlock) bool { return reachesAvoiding(from, to, nil) }

// reachesAvoiding is reaches on the ways that do not pass through the
// block avoid.
func reachesAvoiding(from, to, avoid *ssa.BasicBlock) bool {
	seen := map[*ssa.BasicBlock]bool{avoid: true}
	stack := []*ssa.BasicBlock{from}
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if b == to {
			return true
		}
		if !seen[b] {
			seen[b] = true
			stack = append(stack, b.Succs...)
		}
	}
	return false
}

// keyedLockOp classifies Lock(key) and Unlock(key) of a per-key lock
// that is not package sync's (a table of named locks, as in
// github.com/moby/locker; see keyedLockCall). Holding one serialises the
// callers of that key; the engine cannot tell keys apart, so it is an
// outer lock only, like a claim. Only a concrete locker names one.
func keyedLockOp(c *ssa.CallCommon) (lockOp, bool) {
	if c.IsInvoke() {
		return lockOp{}, false
	}
	locker, _, acquire, ok := keyedLockCall(c)
	if !ok {
		return lockOp{}, false
	}
	op := lockOp{kind: opRelease, mode: Write, claim: true, pos: c.Pos()}
	if acquire {
		op.kind = opAcquire
	}
	op.path = lockPathOf(locker)
	op.path.Steps += ".Lock(key);"
	return op, true
}

// Claims taken in the reading section. A function that reads under L
// while it holds an outer mutex M, and then, in that same section of M,
// claims a key and holds the claim through its write under L, is
// serialised with every other claimant from the read on, provided M
// guards the claim map (every insert, delete and replacement of it is
// made holding M): a racer that held the claim at the read still held it
// when this function tested for it, since it could not release it
// without M, so the test would have failed; one that claims later waits
// for this function's release. (As for any outer lock, writers that do
// not claim at all are not counted.)

// claimChain names a gap's claim and the outer lock class M (lockClass)
// in whose reading section the claim was taken.
type claimChain struct {
	field *types.Var
	outer string
}

// claimTakenInSection returns the chain that serialises read r with write
// w (k is the gap's lock): a claim held at w whose every opener is a
// claim insert made in the section of a mutex M that r was read in.
func (fs *funcState) claimTakenInSection(r *readSite, w *writeSite, k pathKey) (claimChain, bool) {
	for _, c := range w.held {
		if !c.claim || !strings.HasPrefix(c.path.Steps, "claim:") {
			continue
		}
		for _, m := range r.held {
			if m.key == k || m.claim || m.mode != Write {
				continue
			}
			class := lockClass(m.path)
			if class == "" {
				continue
			}
			var field *types.Var
			ok := len(c.openers) > 0
			for _, o := range c.openers {
				a := fs.flow.acquires[o]
				f := fs.e.claimInserts[a.instr]
				if f == nil || field != nil && f != field || !sameSection(r.held, fs.heldAt(a.instr), m.key) {
					ok = false
					break
				}
				field = f
			}
			if ok {
				return claimChain{field: field, outer: class}, true
			}
		}
	}
	return claimChain{}, false
}

// claimSite reports whether instr changes claim map f's entries or
// replaces the map: an update or delete of an entry, clear, or a store
// to the field (other than initialising a value fn has just allocated).
func claimSite(fn *ssa.Function, instr ssa.Instruction) *types.Var {
	switch x := instr.(type) {
	case *ssa.MapUpdate:
		return mapField(x.Map)
	case *ssa.Call:
		if f := claimDelete(x); f != nil {
			return f
		}
		if bi, ok := x.Call.Value.(*ssa.Builtin); ok && bi.Name() == "clear" && len(x.Call.Args) == 1 {
			return mapField(x.Call.Args[0])
		}
	case *ssa.Store:
		fa, ok := x.Addr.(*ssa.FieldAddr)
		if !ok {
			return nil
		}
		if a, ok := pathOf(fa.X).Root.(*ssa.Alloc); ok && a.Parent() == fn && pathOf(fa.X).Steps == "" {
			return nil // initialising a new value
		}
		return fieldVar(fa.X.Type(), fa.Field)
	}
	return nil
}

// noteClaimSites records, for each site of fs's function that changes a
// claim map, the classes of the mutexes held there for writing.
func (fs *funcState) noteClaimSites() {
	if len(fs.e.claimSites) == 0 {
		return
	}
	for _, b := range fs.fn.Blocks {
		for _, instr := range b.Instrs {
			f := claimSite(fs.fn, instr)
			if f == nil || !fs.e.claimed(f) {
				continue
			}
			var classes []string
			for _, h := range fs.heldAt(instr) {
				if h.mode == Write && !h.claim {
					if c := lockClass(h.path); c != "" {
						classes = append(classes, c)
					}
				}
			}
			fs.e.claimSiteLocks[instr] = classes
		}
	}
}

// noteClaimMapSites lists, once the claim maps are known, every site of
// the package (outside tests) that changes one.
func (e *engine) noteClaimMapSites(funcs []*ssa.Function) {
	e.claimSites = make(map[*types.Var][]ssa.Instruction)
	e.claimSiteLocks = make(map[ssa.Instruction][]string)
	for _, fn := range funcs {
		if inTestFile(fn) {
			continue // tests set the state up by hand
		}
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if f := claimSite(fn, instr); f != nil && e.claimed(f) {
					e.claimSites[f] = append(e.claimSites[f], instr)
				}
			}
		}
	}
}

// guardsClaims reports whether every site changing claim map f was seen
// holding a mutex of class outer.
func (e *engine) guardsClaims(f *types.Var, outer string) bool {
	sites := e.claimSites[f]
	if len(sites) == 0 {
		return false
	}
	for _, s := range sites {
		classes, seen := e.claimSiteLocks[s]
		if !seen || !slices.Contains(classes, outer) {
			return false
		}
	}
	return true
}

// claimedInSection reports whether g is serialised by the claims its
// function takes in its reading sections (claimTakenInSection), each
// claim map guarded by the outer lock as required.
func (e *engine) claimedInSection(g *Gap) bool {
	if len(g.claimChains) == 0 {
		return false
	}
	for _, c := range g.claimChains {
		if !e.guardsClaims(c.field, c.outer) {
			return false
		}
	}
	return true
}

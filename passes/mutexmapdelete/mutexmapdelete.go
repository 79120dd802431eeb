package mutexmapdelete

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"runtime/debug"
	"strings"

	goanalysis "golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/lockgap/lockgap/internal/lockflow"
)

//go:embed doc.go
var doc string

var Analyzer = &goanalysis.Analyzer{
	Name:     "mutexmapdelete",
	Doc:      lockflow.PassDoc(doc, "mutexmapdelete"),
	URL:      "https://pkg.go.dev/github.com/lockgap/lockgap/passes/mutexmapdelete",
	Requires: []*goanalysis.Analyzer{lockflow.Analyzer},
	Run:      run,
}

var unusedIgnores bool

func init() {
	Analyzer.Flags.BoolVar(&unusedIgnores, lockflow.UnusedIgnoresFlag, false, "report //lockgap:ignore directives naming this pass that silence nothing")
}

func run(pass *goanalysis.Pass) (_ any, err error) {
	res, ok := pass.ResultOf[lockflow.Analyzer].(*lockflow.Result)
	if !ok || res.Pkg == nil {
		return nil, nil
	}
	defer func() {
		if r := recover(); r != nil && len(pass.Files) > 0 {
			pass.Reportf(pass.Files[0].Package, "internal error in mutexmapdelete (please report): %v\n%s",
				r, lockflow.FirstLine(string(debug.Stack())))
		}
	}()
	a := &analysis{
		pkg:       res.Pkg,
		funcs:     lockflow.Functions(pass, res.Pkg),
		maps:      make(map[types.Object]*mapInfo),
		wrappers:  make(map[*ssa.Function]wrapperOp),
		callers:   make(map[*ssa.Function][]ssa.CallInstruction),
		verifiers: make(map[types.Object]bool),
		unlocks:   make(map[*ssa.Function][]ssa.CallInstruction),
	}
	a.findWrappers()
	a.collect()
	if len(a.order) == 0 {
		return nil, nil
	}
	a.noteEscapes()
	a.noteCallers()
	a.d = &derivation{a: a, of: make(map[ssa.Value][]types.Object)}
	a.d.seed()
	a.d.run()
	a.noteLocks()

	for _, mi := range a.order {
		debugf("map %s %s: sync=%v sites=%d locks=%v keys=%v unknownKey=%v escaped=%v",
			pass.Fset.Position(mi.id.Pos()), mi.id.Name(), mi.syncMap, len(mi.sites), mi.holdsLocks(), mi.storedKeys, mi.unknownKey, mi.escaped)
	}
	r := &reporter{pass: pass, res: res, src: lockflow.NewSource(pass), a: a, held: make(map[*ssa.Function]*lockflow.HeldLocks)}
	var done func()
	r.report, done = lockflow.Reporter(pass, pass.Analyzer.Name, false, unusedIgnores)
	defer done()
	for _, mi := range a.order {
		if mi.holdsLocks() {
			for _, s := range mi.sites {
				r.removal(mi, s)
			}
		}
		if mi.syncMap {
			for _, s := range mi.sites {
				r.mismatch(mi, s)
			}
		}
	}
	return nil, nil
}

// testCleanup reports whether fn is a function literal a test registers
// with Cleanup: it runs once the test and its subtests are over, when
// nothing of the test holds or waits on the mutexes it clears away.
func testCleanup(fn *ssa.Function) bool {
	parent := fn.Parent()
	if parent == nil {
		return false
	}
	for _, b := range parent.Blocks {
		for _, instr := range b.Instrs {
			mc, ok := instr.(*ssa.MakeClosure)
			if !ok || mc.Fn != fn {
				continue
			}
			for _, ref := range *mc.Referrers() {
				call, ok := ref.(ssa.CallInstruction)
				if !ok {
					continue
				}
				callee := call.Common().StaticCallee()
				if callee != nil && callee.Name() == "Cleanup" && callee.Pkg != nil && callee.Pkg.Pkg.Path() == "testing" {
					return true
				}
			}
		}
	}
	return false
}

type reporter struct {
	report func(goanalysis.Diagnostic) // pass.Report filtered by ignore directives
	pass   *goanalysis.Pass
	res    *lockflow.Result
	src    *lockflow.Source
	a      *analysis
	held   map[*ssa.Function]*lockflow.HeldLocks
}

func (r *reporter) heldAt(s *site) []lockflow.Path {
	return r.heldIn(s.fn).At(s.instr)
}

func (r *reporter) heldIn(fn *ssa.Function) *lockflow.HeldLocks {
	h := r.held[fn]
	if h == nil {
		h = lockflow.NewHeldLocks(fn)
		r.held[fn] = h
	}
	return h
}

// lockersShutOut reports whether the removal holds, for writing, a lock
// that every place locking a mutex of the map holds (in either mode) from
// before it locks that mutex until after it has unlocked it, and no mutex
// of the map is handed out to be locked elsewhere: no one can then hold
// the removed mutex or wait on it.
func (r *reporter) lockersShutOut(mi *mapInfo, s *site) bool {
	if len(mi.lockers) == 0 || r.a.handsOut(mi) {
		return false
	}
	exclusive := r.exclusiveAt(s.instr, 0)
	if len(exclusive) == 0 {
		return false
	}
	for _, l := range mi.lockers {
		if !r.lockedWithin(l, exclusive) {
			return false
		}
	}
	return true
}

// exclusiveAt names the locks held for writing at instr, in its function
// or, for a function that runs only where its package calls it, at every
// call (up a few calls).
func (r *reporter) exclusiveAt(instr ssa.Instruction, depth int) map[string]bool {
	out := map[string]bool{}
	for _, h := range r.heldIn(instr.Parent()).AtWithMode(instr) {
		if n := lockflow.LockName(h.Path); n != "" && h.Mode == lockflow.Write {
			out[n] = true
		}
	}
	calls, all := r.res.Callers(instr.Parent())
	if !all || depth >= 3 {
		return out
	}
	var common map[string]bool
	for _, c := range calls {
		at := r.exclusiveAt(c, depth+1)
		if common == nil {
			common = at
			continue
		}
		for n := range common {
			if !at[n] {
				delete(common, n)
			}
		}
	}
	for n := range common {
		out[n] = true
	}
	return out
}

// lockedWithin reports whether the mutex locker locks is unlocked in the
// same function, and one of the named locks is held at the locker and not
// released (directly, or by a defer that runs first) while it is locked.
func (r *reporter) lockedWithin(locker ssa.Instruction, names map[string]bool) bool {
	fn := locker.Parent()
	held := r.heldIn(fn)
	mutex, _, _ := lockflow.LockCall(locker.(ssa.CallInstruction).Common())
	outer := map[string]bool{}
	for _, p := range held.At(locker) {
		if n := lockflow.LockName(p); names[n] {
			outer[n] = true
		}
	}
	if len(outer) == 0 {
		return false
	}
	var mutexDefer ssa.Instruction
	unlocked := false
	type release struct {
		instr ssa.Instruction
		lock  lockflow.Path
	}
	var releases []release
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			p, acquire, ok := lockflow.LockCall(call.Common())
			if !ok || acquire {
				continue
			}
			if lockflow.SamePath(p, mutex) {
				unlocked = true
				if _, ok := instr.(*ssa.Defer); ok {
					mutexDefer = instr
				}
				continue
			}
			releases = append(releases, release{instr, p})
		}
	}
	if !unlocked {
		return false
	}
	for _, rel := range releases {
		if !outer[lockflow.LockName(rel.lock)] {
			continue
		}
		if _, deferred := rel.instr.(*ssa.Defer); deferred {
			// Defers run last in, first out: the mutex's must have been
			// deferred after this one.
			if mutexDefer != nil && !lockflow.RunsAfter(rel.instr, mutexDefer) {
				return false
			}
			continue
		}
		for _, p := range held.At(rel.instr) {
			if lockflow.SamePath(p, mutex) {
				return false
			}
		}
	}
	return true
}

// removal reports s if it takes a lock out of mi (or puts a fresh one in
// place of one) without proof that no one holds or waits on it.
func (r *reporter) removal(mi *mapInfo, s *site) {
	if fresh(s) || testCleanup(s.fn) || lockflow.TestSetUp(s.instr) {
		return
	}
	switch {
	case s.kind.removes():
	case s.kind.replaces():
		if !r.replacing(mi, s) {
			return
		}
	default:
		return
	}
	if r.refcounted(mi, s) || (r.a.verifiers[mi.id] && r.heldDuring(mi, s)) || r.lockersShutOut(mi, s) {
		return
	}
	call := r.src.CallAt(s.pos)
	if call == nil {
		return
	}
	name := r.mapName(s, call)
	// A map of bare mutexes is a keyed lock; a map of entries their users
	// lock also loses whatever a holder records in the entry taken out.
	one, many, lock, locked := "per-key mutex", "per-key mutexes", "the removed mutex", "one mutex"
	if mi.records {
		one, many, lock, locked = "entry", "entries", "the removed entry's lock", "one entry"
	}
	var what string
	switch {
	case s.kind == opClear:
		what = fmt.Sprintf("%s removed from %s by %s", many, name, r.opName(s, call))
	case s.kind.replaces():
		what = fmt.Sprintf("%s in %s replaced by %s", one, name, r.opName(s, call))
	default:
		what = fmt.Sprintf("%s removed from %s by %s", one, name, r.opName(s, call))
	}
	who := "a waiter on"
	if r.waitsUnderMapLock(mi, s) {
		// Waiting happens with the map's lock held, so the removal can
		// only overlap the one who holds the mutex.
		who = "the holder of"
	}
	consequence, advice := "both proceed", "keep the entry (the map keeps "+locked+" per key) or, for unbounded keys, "+
		"use a reference-counted keyed lock (count holders under the map's lock, delete when the count drops to zero)"
	if mi.records {
		consequence = "both proceed, and what the first records goes to an entry no longer in the map"
		advice = "keep the entry there (put one in only where none is, with LoadOrStore or a re-check under the map's lock, " +
			"and use the one found), or count its holders and remove it when the count drops to zero"
	}
	d := goanalysis.Diagnostic{
		Pos: call.Pos(),
		End: call.End(),
		Message: what + " while another goroutine may hold or wait on it: " + who + " " + lock + " " +
			"and a newcomer that stores a fresh one for the same key " + consequence + "; " + advice,
	}
	if len(mi.storedAt) > 0 {
		d.Related = append(d.Related, goanalysis.RelatedInformation{Pos: mi.storedAt[0], Message: "mutexes stored here"})
	}
	if len(mi.lockedAt) > 0 {
		d.Related = append(d.Related, goanalysis.RelatedInformation{Pos: mi.lockedAt[0], Message: "and locked here"})
	}
	if fix, ok := r.removalFix(s, call); ok {
		d.SuggestedFixes = []goanalysis.SuggestedFix{fix}
	}
	r.report(d)
}

// waitsUnderMapLock reports whether every place that locks a mutex taken
// from the map does so while holding a lock that the removal holds too
// (the map's own lock), named alike in both places.
func (r *reporter) waitsUnderMapLock(mi *mapInfo, s *site) bool {
	if len(mi.lockers) == 0 {
		return false
	}
	atRemoval := map[string]bool{}
	for _, p := range r.heldAt(s) {
		if n := lockflow.LockName(p); n != "" {
			atRemoval[n] = true
		}
	}
	for _, l := range mi.lockers {
		held := r.held[l.Parent()]
		if held == nil {
			held = lockflow.NewHeldLocks(l.Parent())
			r.held[l.Parent()] = held
		}
		shared := false
		for _, p := range held.At(l) {
			if atRemoval[lockflow.LockName(p)] {
				shared = true
			}
		}
		if !shared {
			return false
		}
	}
	return true
}

// replacing reports whether a Store, Swap or CompareAndSwap may replace a
// lock someone holds: the map is filled by LoadOrStore elsewhere, or the
// same function looked the key up first (check, then store). A Store that
// re-stores a value taken from the map replaces nothing.
func (r *reporter) replacing(mi *mapInfo, s *site) bool {
	if s.val != nil && r.fromRead(unwrapIface(s.val), mi, map[ssa.Value]bool{}) {
		return false
	}
	if s.kind == opSwap || s.kind == opCompareAndSwap || mi.loadOrStore {
		return true
	}
	for _, o := range mi.sites {
		if o.fn == s.fn && (o.kind == opLoad || o.kind == opLookup) {
			return true
		}
	}
	return false
}

// fromRead reports whether v is a value read from mi (by Load,
// LoadOrStore, a lookup), through assertions, conversions and phis.
func (r *reporter) fromRead(v ssa.Value, mi *mapInfo, seen map[ssa.Value]bool) bool {
	if seen[v] {
		return false
	}
	seen[v] = true
	switch x := v.(type) {
	case *ssa.TypeAssert:
		return r.fromRead(x.X, mi, seen)
	case *ssa.MakeInterface:
		return r.fromRead(x.X, mi, seen)
	case *ssa.ChangeType:
		return r.fromRead(x.X, mi, seen)
	case *ssa.ChangeInterface:
		return r.fromRead(x.X, mi, seen)
	case *ssa.Extract:
		return r.fromRead(x.Tuple, mi, seen)
	case *ssa.Phi:
		for _, e := range x.Edges {
			if r.fromRead(e, mi, seen) {
				return true
			}
		}
		return false
	}
	for _, o := range mi.sites {
		if o.result != nil && o.result == v {
			return true
		}
	}
	return false
}

// fresh reports whether the map operated on at s belongs to a value s's
// function has just allocated (a constructor filling its new object).
func fresh(s *site) bool {
	v := s.recv
	if v == nil {
		return false
	}
	for {
		switch x := v.(type) {
		case *ssa.FieldAddr:
			v = x.X
			continue
		case *ssa.ChangeType:
			v = x.X
			continue
		case *ssa.Alloc:
			return x.Parent() == s.fn
		}
		return false
	}
}

// refcounted reports whether s runs while a lock other than a map entry's
// is held (the map's own lock) and only on the branch where the holder
// count says the caller is the last: zero once it has taken itself off,
// or one while it still counts itself (delete at one, else decrement).
func (r *reporter) refcounted(mi *mapInfo, s *site) bool {
	guarded := false
	for _, p := range r.heldAt(s) {
		switch p.Root.(type) {
		case *ssa.Parameter, *ssa.FreeVar, *ssa.Global:
		default:
			continue
		}
		if r.a.d.has(p.Root, mi.id) || strings.Contains(p.Steps, "."+mi.id.Name()+";") {
			continue // the entry's own lock, or one reached through the map
		}
		guarded = true
	}
	if !guarded {
		return false
	}
	for _, b := range s.fn.Blocks {
		ifi, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
		if !ok || len(b.Succs) != 2 {
			continue
		}
		succ, ok := lastHolderBranch(ifi.Cond)
		if !ok {
			continue
		}
		target := b.Succs[succ]
		if len(target.Preds) == 1 && target.Dominates(s.instr.Block()) {
			return true
		}
	}
	return false
}

// lastHolderBranch recognises a test of an integer count against zero or
// one and returns the successor taken when the count is that constant (or
// below it).
func lastHolderBranch(cond ssa.Value) (int, bool) {
	bin, ok := cond.(*ssa.BinOp)
	if !ok {
		return 0, false
	}
	x, y, op := bin.X, bin.Y, bin.Op
	if _, ok := smallCount(x); ok {
		x, y = y, x
		op = lockflow.Mirrored(op)
	}
	n, ok := smallCount(y)
	if _, isConst := x.(*ssa.Const); !ok || isConst {
		return 0, false
	}
	// One means "only me" only for a count kept in the entry.
	if n == 1 && !isFieldLoad(x) {
		return 0, false
	}
	if b, ok := x.Type().Underlying().(*types.Basic); !ok || b.Info()&types.IsInteger == 0 {
		return 0, false
	}
	switch {
	case op == token.EQL, op == token.LEQ, op == token.LSS && n == 1:
		return 0, true
	case op == token.NEQ, op == token.GTR, op == token.GEQ && n == 1:
		return 1, true
	}
	return 0, false
}

func isFieldLoad(v ssa.Value) bool {
	load, ok := v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return false
	}
	_, ok = load.X.(*ssa.FieldAddr)
	return ok
}

// smallCount returns the value of an integer constant zero or one.
func smallCount(v ssa.Value) (int64, bool) {
	c, ok := v.(*ssa.Const)
	if !ok || c.Value == nil || c.Value.Kind() != constant.Int {
		return 0, false
	}
	n, exact := constant.Int64Val(c.Value)
	return n, exact && (n == 0 || n == 1)
}

// heldDuring reports whether s runs while the caller still holds a lock
// taken from mi: an Unlock of such a lock follows s in the function (or
// is deferred), or the held-lock flow says so.
func (r *reporter) heldDuring(mi *mapInfo, s *site) bool {
	for _, p := range r.heldAt(s) {
		if r.a.d.has(p.Root, mi.id) {
			return true
		}
	}
	for _, u := range r.a.unlocks[s.fn] {
		if !r.a.d.has(u.Common().Args[0], mi.id) {
			continue
		}
		if _, deferred := u.(*ssa.Defer); deferred {
			return true
		}
		if reachesAfter(s.instr, u) {
			return true
		}
	}
	return false
}

// reachesAfter reports whether instruction to can run after from.
func reachesAfter(from ssa.Instruction, to ssa.Instruction) bool {
	fb, tb := from.Block(), to.Block()
	if fb == tb {
		for _, in := range fb.Instrs {
			if in == from {
				break
			}
			if in == to {
				return inLoop(fb)
			}
		}
		return true
	}
	seen := map[*ssa.BasicBlock]bool{}
	work := append([]*ssa.BasicBlock(nil), fb.Succs...)
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		if b == tb {
			return true
		}
		if seen[b] {
			continue
		}
		seen[b] = true
		work = append(work, b.Succs...)
	}
	return false
}

// mismatch reports a lookup or removal whose key can never equal a key
// stored in the sync.Map: its dynamic type differs from all of theirs.
func (r *reporter) mismatch(mi *mapInfo, s *site) {
	if !s.kind.looksUp() || s.key == nil || s.keyArg < 0 {
		return
	}
	if mi.unknownKey || mi.escaped || len(mi.storedKeys) == 0 || mi.id.Exported() {
		return
	}
	kt := dynamicType(s.key)
	if kt == nil {
		return
	}
	for _, st := range mi.storedKeys {
		if types.Identical(kt, st) {
			return
		}
	}
	call := r.src.CallAt(s.pos)
	if call == nil || s.keyArg >= len(call.Args) {
		return
	}
	keyExpr := call.Args[s.keyArg]
	qual := types.RelativeTo(r.pass.Pkg)
	var stored []string
	for _, st := range mi.storedKeys {
		stored = append(stored, types.TypeString(st, qual))
	}
	msg := fmt.Sprintf("key %s has dynamic type %s, but %s only stores keys of type %s: this %s never matches "+
		"(values of different types are different keys of a sync.Map even when they print the same)",
		types.ExprString(keyExpr), types.TypeString(kt, qual), r.mapName(s, call), strings.Join(stored, " or "), r.opName(s, call))
	d := goanalysis.Diagnostic{Pos: keyExpr.Pos(), End: keyExpr.End(), Message: msg}
	for _, o := range mi.sites {
		if o.kind.stores() {
			d.Related = append(d.Related, goanalysis.RelatedInformation{Pos: o.pos, Message: "keys stored here"})
			break
		}
	}
	if mi.holdsLocks() && s.kind.removes() {
		// Converting the key would make the removal split the lock.
		d.Message += "; as written the mutex is never removed (a leak, but no split): do not convert the key without removing the delete"
	} else if fix, ok := r.convertFix(keyExpr, kt, mi.storedKeys); ok {
		d.SuggestedFixes = []goanalysis.SuggestedFix{fix}
	}
	r.report(d)
}

// mapName renders the map as the call wrote it.
func (r *reporter) mapName(s *site, call *ast.CallExpr) string {
	if s.kind == opDeleteBuiltin || (s.kind == opClear && !s.syncMap) {
		if len(call.Args) > 0 {
			return types.ExprString(call.Args[0])
		}
	}
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		return types.ExprString(sel.X)
	}
	return s.id.Name()
}

func (r *reporter) opName(s *site, call *ast.CallExpr) string {
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		return sel.Sel.Name
	}
	if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok {
		return id.Name
	}
	return s.kind.String()
}

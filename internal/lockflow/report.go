package lockflow

import (
	"fmt"
	"go/ast"
	"go/types"
	"os"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
)

// Wording is how a pass speaks of the two sections of a gap.
type Wording struct {
	Relock      string // after the lock's name: "is locked again for writing after RUnlock"
	RelockBy    string // the same when a helper takes the lock, with %s for the call
	ReadSection string // where the stale value was read: "under the read lock"
	ThisSection string // the section that writes: "under the write lock"
}

// Diagnose renders a gap as a diagnostic: positioned on the Lock (or
// helper call) that opens section B, naming the lock as the source writes
// it and the stale value by name, with the read and the unlock as related
// information, and the re-check fix where one is safe.
func Diagnose(pass *analysis.Pass, src *Source, g *Gap, w Wording) analysis.Diagnostic {
	lock := src.Receiver(g.BOpen)
	relock := w.Relock
	if g.BHelper || lock == "" {
		lock = src.HelperLock(g)
		relock = fmt.Sprintf(w.RelockBy, src.Callee(g.BOpen))
	}
	name := src.ValueName(g.Read)
	if name == unnamedValue && g.ReadLoc.Root != nil && !strings.HasPrefix(g.ReadLoc.String(), "(") {
		name = g.ReadLoc.String() // what was read, where the source has no expression for it
	}
	if isSyncMapCall(g.BOpenInst) || isSyncMapPath(g.Lock) {
		return diagnoseSyncMap(pass, src, g, name, lock)
	}
	var why string
	recheck, rechecksCopy := src.copyRecheckOf(g)
	switch kind := g.Kind; {
	case rechecksCopy:
		why = copyRecheckWhy(pass, recheck, g, w)
	case kind == LazyInit && g.Removal && !storesBeside(g):
		// A removal after a miss deletes what another goroutine may have
		// stored since: say what the miss decided, not that a store
		// replaces.
		why = fmt.Sprintf("the removal is decided by %s, read %s, and an entry stored since would be removed; re-check it %s", name, w.ReadSection, w.ThisSection)
	case kind == LazyInit && g.FoundBy:
		why = fmt.Sprintf("the entry %s looked for was %s %s, but another goroutine may have stored one since and this store replaces it; look it up again %s and store only if it is still missing", name, missing(g), w.ReadSection, w.ThisSection)
	case kind == LazyInit && g.Emptiness && !g.OrStale:
		// len(c.items) == 0 found nothing to replace: say what was
		// tested, and that what was added since is what it missed.
		why = fmt.Sprintf("%s empty %s, but another goroutine may have added to it since; test it again %s and go on only if it is still empty", emptinessSaid(name, g), w.ReadSection, w.ThisSection)
	case kind == LazyInit && g.Claim:
		name = src.MissingName(g.Read, name)
		why = fmt.Sprintf("%s was %s %s, but another goroutine may have claimed it since; this store replaces what it stored, and both go on as if the entry were theirs; look it up again %s and give up if it is there", name, missing(g), w.ReadSection, w.ThisSection)
	case kind == LazyInit:
		name = src.MissingName(g.Read, name)
		why = fmt.Sprintf("%s was %s %s, but another goroutine may have stored one since and this store replaces it; look it up again %s and use the one found", name, missing(g), w.ReadSection, w.ThisSection)
	case kind == LostUpdate && g.Copied:
		why = fmt.Sprintf("the value written is a copy built from %s, read %s; what another goroutine stored in %s in between is lost; build the copy %s, or check there that %s is still the one copied and retry", name, w.ReadSection, g.ReadLoc, w.ThisSection, g.ReadLoc)
	case kind == LostUpdate:
		why = fmt.Sprintf("the value written derives from %s, read %s; an update made in between is lost; re-read it %s", name, w.ReadSection, w.ThisSection)
	case kind == StaleTarget:
		why = fmt.Sprintf("the write goes through %s, read %s, which may have been removed or replaced since; look it up again %s", name, w.ReadSection, w.ThisSection)
	case kind == Dropped:
		if g.Emptiness {
			why = fmt.Sprintf("%s not empty %s; if it is emptied before the lock is taken again, the re-check there gives up quietly and the update is lost; handle the empty case as the read path does or retry", emptinessSaid(name, g), w.ReadSection)
			break
		}
		why = fmt.Sprintf("%s was present %s; if it is removed before the lock is taken again, the re-check there gives up quietly and the update is lost; handle the missing case as the read path does (create it) or retry", name, w.ReadSection)
	case g.Picked:
		why = fmt.Sprintf("the loop goes through entries of %s listed %s because a test of their state let them through; that state may have changed since, so test each entry again %s", strings.TrimSuffix(name, "[...]"), w.ReadSection, w.ThisSection)
	default:
		why = fmt.Sprintf("the write is decided by %s, read %s, which may be stale; re-check it %s", name, w.ReadSection, w.ThisSection)
	}
	d := analysis.Diagnostic{
		Pos:     g.BOpen,
		Message: fmt.Sprintf("%s %s: %s", lock, relock, why),
	}
	if g.Read.IsValid() {
		d.Related = append(d.Related, analysis.RelatedInformation{Pos: g.Read, Message: fmt.Sprintf("%s read %s here", name, w.ReadSection)})
	} else {
		// A read the source has no position for (a range over a field):
		// point at the section it was made in.
		d.Related = append(d.Related, analysis.RelatedInformation{Pos: g.AOpen, Message: fmt.Sprintf("%s read %s, which starts here", name, w.ReadSection)})
	}
	if len(g.AReleases) > 0 {
		d.Related = append(d.Related, analysis.RelatedInformation{Pos: g.AReleases[0], Message: "lock released here"})
	}
	if rechecksCopy {
		d.Related = append(d.Related, analysis.RelatedInformation{Pos: recheck.test.Cond.Pos(), Message: "tested again here"})
		if fix, ok := copyRereadFix(pass, src, recheck); ok {
			d.SuggestedFixes = []analysis.SuggestedFix{fix}
		}
	} else if fix, ok := RecheckFix(pass, src, g); ok {
		d.SuggestedFixes = []analysis.SuggestedFix{fix}
	} else if fix, ok := exitRecheckFix(pass, src, g); ok {
		d.SuggestedFixes = []analysis.SuggestedFix{fix}
	} else if fix, ok := getterTestFix(pass, src, g); ok {
		d.SuggestedFixes = []analysis.SuggestedFix{fix}
	} else if fix, ok := keepFoundFix(pass, src, g); ok {
		d.SuggestedFixes = []analysis.SuggestedFix{fix}
	}
	return withCondition(d, g)
}

// withCondition marks, for the driver, a finding that holds only if some
// caller in another package runs after initialisation, hands a shared
// object or holds no lock. A gap with two conditions (fresh and locked)
// is dropped when either holds: they are joined by ConditionSeparator.
func withCondition(d analysis.Diagnostic, g *Gap) analysis.Diagnostic {
	if !ModuleContext {
		return d
	}
	var conds []string
	for _, c := range []struct {
		category string
		entries  []string
	}{{UnlessInitCategory, g.InitEntries}, {UnlessFreshCategory, g.FreshEntries}, {UnlessLockedCategory, g.LockedEntries}} {
		if len(c.entries) > 0 {
			conds = append(conds, c.category+" "+strings.Join(c.entries, " "))
		}
	}
	if len(conds) > 0 {
		d.Category = strings.Join(conds, ConditionSeparator)
	}
	return d
}

// ConditionSeparator joins the conditions of a finding's category, any
// of which drops it.
const ConditionSeparator = ";"

// Dropped holds the positions ("file:line:col") of findings the driver
// has found silenced by their callers in other packages: a -fix run, which
// sees one package at a time, leaves them alone.
var SilencedByCallers map[string]bool

// silencedByCallers reports whether the driver named g's finding among
// those its callers silence; it names findings by where they start, as
// reported (Extent).
func silencedByCallers(pass *analysis.Pass, src *Source, g *Gap) bool {
	if SilencedByCallers == nil {
		return false
	}
	start, _ := src.Extent(g.BOpen)
	return SilencedByCallers[pass.Fset.Position(start).String()]
}

// reportEntryCalls reports the package's calls of other packages' init
// entries, for the driver.
func reportEntryCalls(pass *analysis.Pass, res *Result) {
	for _, c := range res.EntryCalls {
		ctx := "other " + c.View
		if c.Good {
			ctx = c.View
		}
		pass.Report(analysis.Diagnostic{Pos: c.Pos, Category: EntryCallCategory, Message: c.Entry + " " + ctx})
	}
}

// syncMapMethodName reports whether call calls a method named as one of
// sync.Map's (a typed wrapper's Store), not a helper of another name
// (a server's newSession) whose map is the one to name.
func syncMapMethodName(call *ast.CallExpr) bool {
	if call == nil {
		return false
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	switch sel.Sel.Name {
	case "Load", "Store", "Delete", "LoadOrStore", "LoadAndDelete", "Swap", "CompareAndSwap", "CompareAndDelete", "Range", "Clear":
		return true
	}
	return false
}

// diagnoseSyncMap renders a gap between two calls on a sync.Map: there is
// no lock to take again, so the advice is the method that tests and
// writes in one call.
func diagnoseSyncMap(pass *analysis.Pass, src *Source, g *Gap, name, m string) analysis.Diagnostic {
	absent := ""
	if call := src.CallAt(g.BOpen); syncMapMethodName(call) {
		if recv, _, ok := loadOrStoreOf(pass, call); ok {
			// A wrapper's own LoadOrStore, not the sync.Map inside it.
			m = types.ExprString(recv)
		} else if recv := methodReceiver(pass, call); g.BHelper && recv != nil {
			// A wrapper without one: its sync.Map field is not the
			// caller's to use.
			m = types.ExprString(recv)
			absent = " (a method to add to the wrapper)"
		}
	}
	write := src.Callee(g.BOpen)
	read := src.Callee(g.Read)
	if read == "" {
		read = name
	}
	uncomparable := storedUncomparable(pass, src.CallAt(g.BOpen))
	var msg string
	switch {
	case g.Kind == LazyInit && g.Removal:
		msg = fmt.Sprintf("%s removes what %s found missing or stale, but another goroutine may have stored an entry since and this removes it; remove only the entry seen, with %s.CompareAndDelete%s", write, read, m, absent)
	case g.Kind == LazyInit && g.Claim:
		msg = fmt.Sprintf("%s stores what %s found %s, but another goroutine may have claimed the entry since; this replaces what it stored, and both go on as if the entry were theirs; use %s.LoadOrStore%s and give up when it finds an entry", write, read, missing(g), m, absent)
	case g.Kind == LazyInit && presenceOnly(pass, src, g):
		// The lookup only asked whether the key is there: there is no
		// value to go on with, only the way out to take.
		msg = fmt.Sprintf("%s stores what %s found %s, but another goroutine may have stored an entry since and this replaces it; use %s.LoadOrStore%s and leave as the lookup does when it finds one", write, read, missing(g), m, absent)
	case g.Kind == LazyInit:
		msg = fmt.Sprintf("%s stores what %s found %s, but another goroutine may have stored an entry since and this replaces it; use %s.LoadOrStore%s and keep the value it returns", write, read, missing(g), m, absent)
	case g.Kind == LostUpdate && uncomparable != nil:
		// CompareAndSwap compares the values: on these it panics.
		msg = fmt.Sprintf("%s writes a value derived from %s, read by an earlier call; an update or removal made in between is undone; %s values cannot be compared, so store pointers to them and swap with %s.CompareAndSwap in a loop, or give each entry a lock of its own%s", write, read, types.TypeString(uncomparable, types.RelativeTo(pass.Pkg)), m, absent)
	case g.Kind == LostUpdate:
		msg = fmt.Sprintf("%s writes a value derived from %s, read by an earlier call; an update or removal made in between is undone; use %s.CompareAndSwap in a loop (LoadOrStore for the first value)%s", write, read, m, absent)
	case g.Removal:
		msg = fmt.Sprintf("%s is decided by %s, read by an earlier call, and the entry may have been replaced since; remove only the entry seen, with %s.CompareAndDelete%s", write, read, m, absent)
	default:
		msg = fmt.Sprintf("%s is decided by %s, read by an earlier call, which may be stale; test and write in one call (%s.LoadOrStore, CompareAndSwap, CompareAndDelete)%s", write, read, m, absent)
	}
	d := analysis.Diagnostic{Pos: g.BOpen, Message: msg}
	if g.Read.IsValid() {
		what := fmt.Sprintf("%s read here", name)
		switch {
		case g.Kind == LazyInit && g.Removal:
			what = "found missing or stale here"
		case g.Kind == LazyInit:
			what = "found " + missing(g) + " here"
		}
		d.Related = append(d.Related, analysis.RelatedInformation{Pos: g.Read, Message: what})
	}
	if fix, ok := loadOrStoreFix(pass, src, g); ok {
		d.SuggestedFixes = []analysis.SuggestedFix{fix}
	}
	return withCondition(d, g)
}

// storedUncomparable returns the type of the value a Store or Swap call
// stores when values of it cannot be compared (a struct holding a slice
// or a map): CompareAndSwap and CompareAndDelete panic on them. Nil
// otherwise, an interface type included (what it holds is not known).
func storedUncomparable(pass *analysis.Pass, call *ast.CallExpr) types.Type {
	if call == nil || len(call.Args) != 2 {
		return nil
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Store" && sel.Sel.Name != "Swap" {
		return nil
	}
	t := pass.TypesInfo.TypeOf(call.Args[1])
	if t == nil || types.IsInterface(t) || types.Comparable(t) {
		return nil
	}
	return t
}

// ReportCrashes reports internal errors once per package; only one pass
// calls it.
func ReportCrashes(pass *analysis.Pass, res *Result) {
	for _, c := range res.Crashes {
		if debugEnabled {
			fmt.Fprintf(os.Stderr, "crash in %s: %s\n", c.Func, c.Value)
		}
		pass.Reportf(c.Pos, "internal error analysing %s (please report): %s", c.Func, FirstLine(c.Value))
	}
}

// Findings renders the gaps a pass owns (those keep accepts) as
// diagnostics in the pass's wording.
func Findings(pass *analysis.Pass, res *Result, w Wording, keep func(*Gap) bool) []analysis.Diagnostic {
	src := NewSource(pass)
	var out []analysis.Diagnostic
	for _, g := range res.Gaps {
		if keep(g) && !silencedByCallers(pass, src, g) {
			out = mergeAtSite(out, Diagnose(pass, src, g, w))
		}
	}
	return out
}

// mergeAtSite adds d to out, or, when a diagnostic under the same
// condition already stands where d would (one write decided by two stale
// reads), adds d's stale read to it: one report per site. A fix
// re-checking one of the reads would leave the other stale, so the
// merged report offers none.
func mergeAtSite(out []analysis.Diagnostic, d analysis.Diagnostic) []analysis.Diagnostic {
	i := slices.IndexFunc(out, func(o analysis.Diagnostic) bool { return o.Pos == d.Pos && o.Category == d.Category })
	if i < 0 {
		return append(out, d)
	}
	o := &out[i]
	if len(d.Related) == 0 || slices.ContainsFunc(o.Related, func(r analysis.RelatedInformation) bool { return r.Pos == d.Related[0].Pos }) {
		return out // the same read again: nothing to add, the fix still covers it
	}
	r := d.Related[0]
	if strings.HasSuffix(r.Message, " read here") {
		r.Message = "also decided by " + r.Message
	} else {
		r.Message = "also " + r.Message // "found missing here"
	}
	o.Related = append(o.Related, r)
	o.SuggestedFixes = nil
	return out
}

// ReentryFindings returns the diagnostics for the engine's reentries
// that keep selects.
func ReentryFindings(pass *analysis.Pass, res *Result, src *Source, keep func(Reentry) bool) []analysis.Diagnostic {
	var out []analysis.Diagnostic
	for _, r := range res.Reentries {
		if !keep(r) || SilencedByCallers[pass.Fset.Position(r.Call).String()] {
			continue
		}
		d := DiagnoseReentry(pass, src, r)
		if ModuleContext && len(r.LockedEntries) > 0 {
			d.Category = UnlessLockedCategory + " " + strings.Join(r.LockedEntries, " ")
		}
		out = append(out, d)
	}
	return out
}

// DiagnoseReentry renders a reentry: on the helper call, naming the lock
// as the caller's Lock writes it, with the two acquisitions as related
// information.
func DiagnoseReentry(pass *analysis.Pass, src *Source, r Reentry) analysis.Diagnostic {
	lock := src.Receiver(r.Held)
	callee := src.Callee(r.Call)
	if len(r.Via) > 0 {
		var through []string
		for _, v := range r.Via {
			through = append(through, src.Callee(v))
		}
		callee += " (through " + strings.Join(through, ", ") + ")"
	}
	if r.Runner != RunnerNone {
		return diagnoseRunnerReentry(src, r, lock, callee)
	}
	var msg string
	switch {
	case !r.RWMutex:
		msg = fmt.Sprintf("%s is held here and %s locks it again: sync.Mutex is not reentrant, so the call never returns; call a variant that expects the lock held, or unlock before the call", lock, callee)
	case r.HeldMode == Write && r.TakenMode == Read:
		msg = fmt.Sprintf("%s is held for writing here and %s takes its read lock: sync.RWMutex is not reentrant, so the call never returns; call a variant that expects the lock held, or unlock before the call", lock, callee)
	case r.HeldMode == Write:
		msg = fmt.Sprintf("%s is held for writing here and %s locks it again: sync.RWMutex is not reentrant, so the call never returns; call a variant that expects the lock held, or unlock before the call", lock, callee)
	case r.TakenMode == Read:
		msg = fmt.Sprintf("%s is held for reading here and %s takes its read lock again: a writer whose Lock comes in between waits for this reader, and the second RLock waits behind that writer, so both hang; call a variant that expects the lock held, or read under the one RLock", lock, callee)
	default:
		msg = fmt.Sprintf("%s is held for reading here and %s takes its write lock, which waits for every reader, this one too: the call never returns; unlock before the call, or take the write lock from the start", lock, callee)
	}
	d := analysis.Diagnostic{
		Pos:     r.Call,
		Message: msg,
		Related: []analysis.RelatedInformation{
			{Pos: r.Held, Message: lock + " locked here"},
			{Pos: r.Taken, Message: "and locked again here"},
		},
	}
	if fix, ok := lockedVariantFix(src, r); ok {
		d.SuggestedFixes = []analysis.SuggestedFix{fix}
	} else if fix, ok := inlineGetterFix(pass, src, r); ok {
		d.SuggestedFixes = []analysis.SuggestedFix{fix}
	} else if fix, ok := splitLockedFix(pass, src, r); ok {
		d.SuggestedFixes = []analysis.SuggestedFix{fix}
	}
	return d
}

// diagnoseRunnerReentry renders a loop body (or callback) taking a lock
// the iterator (or the function running the callback) holds: on the
// body's Lock or helper call. No fix: what the body does must move out
// of it, which takes a person.
func diagnoseRunnerReentry(src *Source, r Reentry, lock, callee string) analysis.Diagnostic {
	name := ""
	if r.RunnerCall.IsValid() {
		name = src.Callee(r.RunnerCall)
	}
	if !r.Held.IsValid() {
		// Another package's runner: its lock named from the receiver
		// the caller wrote.
		lock = "the lock"
		if recv := src.Receiver(r.RunnerCall); recv != "" && r.HeldSteps != "" {
			lock = recv + renderSteps(r.HeldSteps)
		}
	}
	taker := callee + " takes"
	if r.Call == r.Taken {
		taker = "the function takes"
	}
	holder, while, after := "the iterator", "while the loop body runs", "collect what the loop finds and act on it after the loop, or have the iterator copy what it yields and unlock before yielding"
	if name != "" {
		holder = "the iterator " + name
	}
	if r.Call == r.Taken {
		taker = "the loop body takes"
	}
	if r.Runner == RunnerCallback {
		holder, while = name, "while it runs the function handed to it"
		after = "collect what the function finds and act on it after " + name + " returns"
		if r.Call == r.Taken {
			taker = "the function takes"
		}
	}
	stuck := "the loop never ends"
	if r.Runner == RunnerCallback {
		stuck = holder + " never returns"
	}
	var msg string
	switch {
	case !r.RWMutex:
		msg = fmt.Sprintf("%s is held by %s %s, and %s it again: sync.Mutex is not reentrant, so %s; %s", lock, holder, while, taker, stuck, after)
	case r.HeldMode == Write:
		msg = fmt.Sprintf("%s is held for writing by %s %s, and %s it again: sync.RWMutex is not reentrant, so %s; %s", lock, holder, while, taker, stuck, after)
	case r.TakenMode == Read:
		msg = fmt.Sprintf("%s is held for reading by %s %s, and %s its read lock again: a writer whose Lock comes in between waits for %s, and this RLock waits behind that writer, so both hang; %s", lock, holder, while, taker, holder, after)
	default:
		msg = fmt.Sprintf("%s is held for reading by %s %s, and %s its write lock, which waits for every reader, %s too: %s; %s", lock, holder, while, taker, holder, stuck, after)
	}
	d := analysis.Diagnostic{Pos: r.Call, Message: msg}
	if r.Held.IsValid() {
		d.Related = append(d.Related, analysis.RelatedInformation{Pos: r.Held, Message: lock + " locked here"})
	}
	if r.Taken.IsValid() && r.Taken != r.Call {
		d.Related = append(d.Related, analysis.RelatedInformation{Pos: r.Taken, Message: "and locked again here"})
	}
	return d
}

// lockedVariantFix renames the call of a wrapper that only locks around
// another function to a call of that function: same receiver, same
// arguments, the lock already held.
func lockedVariantFix(src *Source, r Reentry) (analysis.SuggestedFix, bool) {
	if r.Locked == nil || r.Locked.Object() == nil {
		return analysis.SuggestedFix{}, false
	}
	locked := r.Locked.Object().Name()
	c := src.CallAt(r.Call)
	if c == nil {
		return analysis.SuggestedFix{}, false
	}
	name := calleeName(c)
	if name == nil {
		return analysis.SuggestedFix{}, false
	}
	return analysis.SuggestedFix{
		Message:   "call " + locked + ", which expects the lock held",
		TextEdits: []analysis.TextEdit{{Pos: name.Pos(), End: name.End(), NewText: []byte(locked)}},
	}, true
}

// GapPass describes a pass that reports some of the engine's gaps.
type GapPass struct {
	Name    string
	Doc     string // the pass's doc.go
	Wording Wording
	Owns    func(*Gap) bool // which gaps are this pass's
	// OwnsReentry: which reentries (a helper taking a lock its caller
	// holds) are this pass's; nil for none.
	OwnsReentry func(Reentry) bool
	// Crashes: this pass reports the engine's internal errors (one pass
	// does, so each is reported once).
	Crashes bool
}

// Analyzer builds the pass's analyzer: it requires the engine, reports
// the gaps it owns in its wording, honours //lockgap:ignore directives, and
// has the -unused_ignores flag.
func (p GapPass) Analyzer() *analysis.Analyzer {
	a := &analysis.Analyzer{
		Name:     p.Name,
		Doc:      PassDoc(p.Doc, p.Name),
		URL:      "https://pkg.go.dev/github.com/lockgap/lockgap/passes/" + p.Name,
		Requires: []*analysis.Analyzer{Analyzer},
	}
	unused := a.Flags.Bool(UnusedIgnoresFlag, false, "report //lockgap:ignore directives naming this pass that silence nothing")
	a.Run = func(pass *analysis.Pass) (any, error) {
		res := pass.ResultOf[Analyzer].(*Result)
		if p.Crashes {
			ReportCrashes(pass, res)
		}
		if ModuleContext {
			reportEntryCalls(pass, res)
		}
		report, done := Reporter(pass, p.Name, p.Crashes, *unused)
		for _, d := range p.Findings(pass, res) {
			report(d)
		}
		done()
		return nil, nil
	}
	return a
}

// Findings returns the pass's diagnostics for the engine's result.
func (p GapPass) Findings(pass *analysis.Pass, res *Result) []analysis.Diagnostic {
	out := Findings(pass, res, p.Wording, p.Owns)
	if p.OwnsReentry != nil {
		out = append(out, ReentryFindings(pass, res, NewSource(pass), p.OwnsReentry)...)
	}
	return out
}

// storesBeside reports whether the block of g's write (a removal) also
// stores to the location the stale read read: a delete-then-store
// replaces, and the store is what the message should speak of.
func storesBeside(g *Gap) bool {
	for _, b := range g.Fn.Blocks {
		var write bool
		for _, instr := range b.Instrs {
			if instr.Pos() == g.Write {
				write = true
			}
		}
		if !write {
			continue
		}
		for _, instr := range b.Instrs {
			switch x := instr.(type) {
			case *ssa.MapUpdate:
				loc := pathOf(x.Map)
				loc.Steps += "[];"
				if loc.key() == g.ReadLoc.key() {
					return true
				}
			case *ssa.Store:
				if pathOf(x.Addr).key() == g.ReadLoc.key() && !isNil(x.Val) {
					return true
				}
			}
		}
	}
	return false
}

// emptinessSaid names what an emptiness test found: "n said q.items was"
// for a count taken into n, "len(q.items) was found" for a test inline.
func emptinessSaid(name string, g *Gap) string {
	if name == g.ReadLoc.String() {
		return name + " was found"
	}
	return name + " said " + g.ReadLoc.String() + " was"
}

// missing says what section A found: the entry missing, or (where the
// write also replaces an entry found but refused) missing or stale.
func missing(g *Gap) string {
	if g.OrStale {
		return "missing or stale"
	}
	return "missing"
}

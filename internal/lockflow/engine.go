package lockflow

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"os"
	"reflect"
	"regexp"
	"runtime/debug"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
)

// Analyzer computes the gaps of a package. It reports nothing itself.
//
// It builds SSA for the package from its syntax and types alone, with no
// analyzer prerequisites: requiring buildssa would bring in ctrlflow and
// its facts, and an analyzer with facts makes the standalone checker load
// every dependency from source.
var Analyzer = &analysis.Analyzer{
	Name:       "lockflow",
	Doc:        "compute critical sections and the values that cross between them",
	Run:        run,
	ResultType: reflect.TypeFor[*Result](),
	FactTypes:  []analysis.Fact{new(LockSummary), new(InitEntry), new(FreshEntry), new(FreshResult), new(LockedEntry), new(CallsBack), new(LockAccessor), new(LazyLocks), new(SerialCallback)},
}

// Result is what the engine found in one package.
type Result struct {
	Pkg  *ssa.Package // nil when the package never refers to package sync
	Gaps []*Gap
	// Reentries: calls of helpers that take a lock the caller holds.
	Reentries []Reentry
	// Crashes are internal errors, one per function whose analysis
	// panicked; the rest of the package is still analysed.
	Crashes []Crash
	// EntryCalls: this package's uses of other packages' init entries
	// (with ModuleContext only).
	EntryCalls []EntryCall

	e *engine
}

// Callers returns the static calls of fn in the package, and whether they
// are all the ways fn can run: it is unexported, never used as a value and
// never started as a goroutine.
func (r *Result) Callers(fn *ssa.Function) (calls []ssa.Instruction, all bool) {
	e := r.e
	if e == nil || e.calls == nil {
		return nil, false
	}
	all = e.callsKnown(fn)
	for _, c := range e.calls[fn] {
		if c.callback {
			all = false
			continue
		}
		calls = append(calls, c.instr)
	}
	return calls, all
}

// Crash records an internal error in the analysis of one function.
type Crash struct {
	Pos   token.Pos
	Func  string
	Value string
}

func run(pass *analysis.Pass) (any, error) {
	res := &Result{}
	e := newEngine(pass, nil, res)
	res.e = e
	e.callsBack = findCallsBack(pass)
	usesSync, locks := syncUse(pass.TypesInfo)
	callsLockers := !locks && e.factsInUse()
	callsEntries := ModuleContext && (e.usesInitEntries() || e.usesFreshEntries() || e.usesLockedEntries())
	// Asked only where it decides whether to build SSA or to look.
	startsCallbacks := !locks && !callsLockers && mayRunCallbacksSerially(pass)
	if !usesSync && !callsLockers && !callsEntries && !startsCallbacks {
		return res, nil
	}
	pkg := BuildSSA(pass)
	res.Pkg = pkg
	e.pkg = pkg
	funcs := packageFunctions(pass, pkg)
	findLockAccessors(pass, funcs)
	if locks || callsLockers {
		e.analyse(funcs)
	} else if startsCallbacks {
		e.funcs = funcs
		e.noteMutations(funcs)
		e.findSerialCallbacks()
	}
	if callsEntries {
		if e.calls == nil {
			e.noteMutations(funcs)
		}
		e.recordEntryCalls(funcs)
		e.recordFreshCalls(funcs)
		e.recordLockedCalls(funcs)
	}
	return res, nil
}

// analyse runs the engine over the functions of e.pkg.
func (e *engine) analyse(funcs []*ssa.Function) {
	res := e.res
	e.funcs = funcs
	e.noteMutations(funcs)
	e.findClaims(funcs)
	e.noteClaimMapSites(funcs)
	e.findSemaphores(funcs)
	e.findSerialCallbacks()
	for _, fn := range funcs {
		var s *summary
		if e.worthAnalysing(fn) {
			s = e.summaryOf(fn)
		}
		e.exportFact(fn, s)
	}
	e.findLazyLocks()
	res.Gaps = slices.DeleteFunc(res.Gaps, func(g *Gap) bool {
		e.explain(g)
		return e.outerLockCovers(g) || e.ownedByWorker(g) || sequentialTest(g.Fn) || e.stagesFake(g) || e.ownedByTestGoroutine(g) ||
			e.onlyAtInit(g.Fn) || e.constructing(g) || e.inFlight(g) || e.slotHeld(g) || e.mutexMapGap(g) || e.oneAtATime(g) || e.lazyLock(g.Lock) ||
			e.underOnce(g) || e.claimedInSection(g) || e.seededThenRefreshed(g) || e.onlyOnUntakenBranch(g) ||
			e.onlyMainGoroutine(g) || e.serialisedByFramework(g) || e.neverRuns(g.Fn) || setUpMethod(g) ||
			e.contractSerialises(g)
	})
	res.Reentries = slices.DeleteFunc(res.Reentries, func(r Reentry) bool { return e.neverRuns(r.Fn) || e.readersSerialised(r) })
	e.markInitEntries()
	e.markFreshEntries()
	e.markLockedEntries()
	slices.SortStableFunc(res.Gaps, func(a, b *Gap) int { return int(a.BOpen - b.BOpen) })
}

func newEngine(pass *analysis.Pass, pkg *ssa.Package, res *Result) *engine {
	return &engine{
		pass:       pass,
		pkg:        pkg,
		summaries:  make(map[*ssa.Function]*summary),
		inProgress: make(map[*ssa.Function]bool),
		locking:    make(map[*ssa.Function]bool),
		locking2:   make(map[*ssa.Function]bool),
		imported:   make(map[*types.Func]*summary),
		res:        res,
	}
}

type engine struct {
	pass     *analysis.Pass
	imported map[*types.Func]*summary
	// callsBack: the package's functions that call back some of their
	// function parameters (callsback.go).
	callsBack  map[*types.Func][]int
	pkg        *ssa.Package
	summaries  map[*ssa.Function]*summary
	inProgress map[*ssa.Function]bool
	locking    map[*ssa.Function]bool // direct lock calls
	locking2   map[*ssa.Function]bool // lock calls, direct or through callees
	res        *Result

	// mutated holds the struct fields of this package that some function
	// writes after construction; the others never change once built.
	mutated map[*types.Var]bool
	// stores counts the stores of fresh allocations to each field after
	// construction; storesOther marks fields that ever get something other
	// than a fresh allocation or nil. A pointer field stored once with a
	// fresh allocation (and perhaps cleared) is never replaced.
	stores      map[*types.Var]int
	storesOther map[*types.Var]bool
	// keptEntries: map fields whose entries stay once stored (memoised
	// keptEntryLookup).
	keptEntries map[*types.Var]bool
	// latchMemo: whether a flag latches a state ("flag state"; latch.go).
	latchMemo map[[2]string]bool
	// lazyLocks: mutex pointer fields of the package filled on first use
	// with no lock held (findLazyLocks).
	lazyLocks map[*types.Var]bool
	// serialCallbacks: the package's functions running callback
	// parameters on one goroutine of their own (findSerialCallbacks);
	// valueUses: where each function is used as a value.
	serialCallbacks map[*types.Func][]int
	valueUses       map[*ssa.Function][]ssa.Instruction
	// globalSet: package variables assigned outside init.
	globalSet map[*ssa.Global]bool
	// counted: fields some function of the package increments (x.n++).
	counted map[*types.Var]bool
	// usedFromOutside: per hidden type neverRuns asked about, the methods
	// code outside its own methods runs.
	usedFromOutside map[*types.TypeName]map[*ssa.Function]bool
	// hiddenTypes: unexported types whose values no other package can
	// obtain (see hiddenMethod), memoised.
	hiddenTypes map[*types.TypeName]bool
	// fixedCells: captured variables assigned once before any closure
	// sees them (see fixedCell), memoised.
	fixedCells map[*ssa.FreeVar]bool

	// Call structure, to tell functions only ever called with a lock
	// held: static call sites per callee, those seen with a lock held, and
	// functions used other than by a static call.
	calls       map[*ssa.Function][]staticCall
	lockedCalls map[ssa.Instruction]bool
	// underKeyedLock: the instructions a keyed locker (Lock(key)) holds
	// some key over, known only from its methods' names.
	underKeyedLock map[ssa.Instruction]bool
	escapes        map[*ssa.Function]bool
	// Goroutines: the go statements starting each function, and the
	// functions writing under each lock class (see owner.go).
	started map[*ssa.Function][]*goStart
	writers map[string][]*ssa.Function
	// fieldWriters: the functions writing each field under a lock;
	// insertOnly: those whose every write of the field (a map) adds an
	// entry only where a lookup found none.
	fieldWriters map[string][]*ssa.Function
	insertOnly   map[string]map[*ssa.Function]bool
	// fieldWrites: for each field and function in fieldWriters, how the
	// function writes it (see fieldWrite).
	fieldWrites map[string]map[*ssa.Function]*fieldWrite
	// bareWriters: for each field and lock class (keyed as stateKey),
	// the writers that write it somewhere with no other lock held.
	bareWriters map[string]map[*ssa.Function]bool
	workers     map[*ssa.Function]*goStart // memo of worker

	calledLockedMemo map[*ssa.Function]bool
	slotsMemo        map[*ssa.Function][]slot // see slotsOf
	// lockedOrBuildingMemo: memo of lockedOrBuilding, made on first use.
	lockedOrBuildingMemo map[*ssa.Function]bool
	// contractMemo: functions run only under a documented serial
	// contract (contract.go).
	contractMemo map[*ssa.Function]bool
	// constructingMemo: memo of constructing by the lock's parameter
	// (every gap of a large function asks it of the same one).
	constructingMemo  map[*ssa.Parameter]bool
	buildingWorkers   map[*ssa.Function]bool
	testGoroutineMemo map[*ssa.Function]bool
	testLockerMemo    map[testLockerKey]bool // memo of testStartsLocker

	funcs []*ssa.Function // the package's, as analysed
	// writeLockedClasses: the locks (by lockClass) some function of the
	// package takes for writing; computed on first use.
	writeLockedClasses map[string]bool
	// writeLockers: per lock class, the functions taking its write lock.
	writeLockers map[string][]*ssa.Function
	// invokeSites: the package's interface calls, by method name (nil
	// until asked).
	invokeSites map[string][]ssa.CallInstruction
	// unlockedOwn: per method, the fields of its receiver it reads and
	// writes with no lock held (see readersSerialised).
	unlockedOwn map[*ssa.Function]*ownAccess
	// mutexMaps: the sync.Maps (by field or package variable) that hold
	// per-key mutexes (syncmap.go); nil until asked.
	mutexMaps map[string]bool
	// Package initialisation (callctx.go): functions run only by it, and
	// whether it starts a goroutine (nil until asked).
	initOnlyMemo map[*ssa.Function]bool
	mainMemo     map[*ssa.Function]bool // onMainGoroutine
	// serialMemo: the framework callbacks each function runs under
	// (frameworks.go); concurrentReconciles, once known.
	serialMemo           map[*ssa.Function]string
	concurrentReconciles *bool
	noGoroutines         *bool // startsNoGoroutine, once known
	initGoroutines       *bool
	// fresh and lockedDeps: the fresh and locked entries of the package's
	// dependencies in the module (fresh.go, lockedentries.go), read
	// together by loadDepEntries; nil until asked.
	fresh      map[*types.Func]int
	lockedDeps map[*types.Func]int
	// firstTakes: per helper, the locks it takes before any release
	// (reentry.go); filled as helpers are met.
	firstTakes map[*ssa.Function][]firstTake
	// claimHelpers: per function of the package, whether its one
	// sync.Map call is a claim (syncmap.go); filled as asked.
	claimHelpers map[*ssa.Function]bool

	// Claim maps (claims.go): the inserts that take a claim, and the
	// functions that take or drop one for their caller.
	claimInserts        map[ssa.Instruction]*types.Var
	claimFields         map[*types.Var]bool
	claimers, releasers map[*ssa.Function]*types.Var
	// once: the package's sync.Once calls (once.go); nil until asked.
	once *onceCtx
	// claimSites: every site changing each claim map (outside tests);
	// claimSiteLocks: the mutex classes held for writing at each, for the
	// sites of the functions analysed (see claimTakenInSection).
	claimSites     map[*types.Var][]ssa.Instruction
	claimSiteLocks map[ssa.Instruction][]string
	// semaphores: channels of capacity one used as locks (semaphore.go),
	// by field or package variable; nil when there are none.
	semaphores map[any]bool
}

// staticCall is a static call of a function of the package.
type staticCall struct {
	caller *ssa.Function
	instr  ssa.Instruction
	// callback: instr calls a function that calls fn back before it
	// returns, any number of times, with arguments of its own (a closure
	// handed to sync.Map's Range).
	callback bool
}

// onlyCalledLocked reports whether every call of fn in the package holds
// some lock, or is made by a function that is itself only called so, and
// fn cannot be called from elsewhere: an outer lock (a per-key lock, say)
// then serialises fn's sections.
func (e *engine) onlyCalledLocked(fn *ssa.Function) bool {
	return memoised(e.calledLockedMemo, fn, e.calledLocked)
}

// callsKnown reports whether fn runs only where the package calls it
// (statically): it is called, unexported, never used as a value and never
// started as a goroutine.
func (e *engine) callsKnown(fn *ssa.Function) bool {
	if e.escapes[fn] || len(e.started[fn]) > 0 || len(e.calls[fn]) == 0 {
		return false
	}
	obj := fn.Object()
	return obj == nil || !obj.Exported() || e.namedOnlyHere(fn) || e.hiddenMethod(fn)
}

// calledOnlyFrom reports whether fn runs only where the package calls it
// and every function calling it satisfies holds.
func (e *engine) calledOnlyFrom(fn *ssa.Function, holds func(caller *ssa.Function) bool) bool {
	if !e.callsKnown(fn) {
		return false
	}
	for _, c := range e.calls[fn] {
		if !holds(c.caller) {
			return false
		}
	}
	return true
}

// memoised returns m[k], computing it once; while k is being computed
// (a function on its own cycle of calls), it counts as false.
func memoised[K comparable](m map[K]bool, k K, compute func(K) bool) bool {
	if v, ok := m[k]; ok {
		return v
	}
	m[k] = false
	v := compute(k)
	m[k] = v
	return v
}

// outerLockCovers reports whether every call of g's function holds a
// lock (an outer lock serialises its sections) and that lock keeps the
// other writers of the state out too: each of them writes it holding
// some lock besides the state's own, or is itself only called so. A lock
// that only keeps the function from racing itself (a rebuild queue)
// leaves the gap open to a writer that never takes it.
func (e *engine) outerLockCovers(g *Gap) bool {
	return e.onlyCalledLocked(g.Fn) && e.othersWriteLocked(g)
}

// othersWriteLocked reports whether every other writer of the state g's
// stale read read keeps to the callers' lock too (see uncoveredWriters).
func (e *engine) othersWriteLocked(g *Gap) bool {
	return len(e.uncoveredWriters(g)) == 0
}

// uncoveredWriters returns the other methods of the type whose state g's
// stale read read (or closures in them) that write that state somewhere
// with no lock held but its own, and are not only called with one held.
// Writers of other types are not asked: what the engine knows of them
// is by class, and another object of the same class (a cache of another
// owner) would count against this one. Nor are writers that only raise
// a count the stale test found large enough.
func (e *engine) uncoveredWriters(g *Gap) []*ssa.Function {
	if g.ReadLoc.Root == nil {
		return nil
	}
	owner := deref(g.ReadLoc.Root.Type())
	writers, _ := e.stateWriters(g)
	bare := e.bareWriters[e.stateKey(g)]
	f := fieldClass(g.ReadLoc)
	var out []*ssa.Function
	for _, w := range writers {
		if w == g.Fn || !bare[w] || !methodOf(outermost(w), owner) || e.lockedOrBuilding(w) || f != "" && e.writesOnlyThrough(w, f, g.Fn) {
			continue
		}
		if e.writesOtherKeeper(g, w) {
			continue
		}
		if (g.countNonzero || g.atLeast) && f != "" && e.onlyIncrements(w, f) {
			continue // raising the count cannot undo a test that found it large enough
		}
		if g.absent && f != "" && e.onlyRemoves(w, f) {
			continue // taking out cannot put back what the test found missing
		}
		out = append(out, w)
	}
	return out
}

// lockedOrBuilding reports whether fn runs only with a lock held or on
// an object still being built (a method, or a goroutine it starts, that
// restores saved state before the constructor hands the object out):
// each call of it is made with a lock held or from such a function.
func (e *engine) lockedOrBuilding(fn *ssa.Function) bool {
	if e.lockedOrBuildingMemo == nil {
		e.lockedOrBuildingMemo = make(map[*ssa.Function]bool)
	}
	return memoised(e.lockedOrBuildingMemo, fn, func(fn *ssa.Function) bool {
		if e.onlyCalledLocked(fn) || e.calledOnFresh(outermost(fn), 0) {
			return true
		}
		if !e.callsKnown(fn) {
			return false
		}
		for _, c := range e.calls[fn] {
			// A method called on an object its caller is still building
			// (a constructor's tree.init(head)) runs before anyone else
			// can reach the object, whoever else calls it with a lock.
			building := fn.Parent() == nil && fn.Signature.Recv() != nil && e.callOnFresh(c, 0)
			if !e.lockedCalls[c.instr] && !building && !e.lockedOrBuilding(c.caller) {
				return false
			}
		}
		return true
	})
}

func (e *engine) calledLocked(fn *ssa.Function) bool {
	if namedLocked(fn) && !unlocksCallersLock(fn) {
		// Its name says every caller holds the lock for it (a hook or
		// method value calling it included), and it keeps it held.
		return true
	}
	if !e.callsKnown(fn) {
		return false
	}
	for _, c := range e.calls[fn] {
		// A constructor's own workers, which no caller holding the lock
		// can meet, need not hold it.
		if !e.lockedCalls[c.instr] && !e.onlyCalledLocked(c.caller) && !e.buildingCall(c) {
			return false
		}
	}
	return true
}

// noteMutations records every field written through a pointer that is not
// a fresh local allocation.
func (e *engine) noteMutations(funcs []*ssa.Function) {
	e.mutated = make(map[*types.Var]bool)
	e.stores = make(map[*types.Var]int)
	e.storesOther = make(map[*types.Var]bool)
	e.calls = make(map[*ssa.Function][]staticCall)
	e.lockedCalls = make(map[ssa.Instruction]bool)
	e.underKeyedLock = make(map[ssa.Instruction]bool)
	e.escapes = make(map[*ssa.Function]bool)
	e.started = make(map[*ssa.Function][]*goStart)
	e.writers = make(map[string][]*ssa.Function)
	e.fieldWriters = make(map[string][]*ssa.Function)
	e.insertOnly = make(map[string]map[*ssa.Function]bool)
	e.fieldWrites = make(map[string]map[*ssa.Function]*fieldWrite)
	e.bareWriters = make(map[string]map[*ssa.Function]bool)
	e.workers = make(map[*ssa.Function]*goStart)
	e.calledLockedMemo = make(map[*ssa.Function]bool)
	e.testGoroutineMemo = make(map[*ssa.Function]bool)
	e.initOnlyMemo = make(map[*ssa.Function]bool)
	e.mainMemo = make(map[*ssa.Function]bool)
	e.globalSet = make(map[*ssa.Global]bool)
	e.counted = make(map[*types.Var]bool)
	var ops []*ssa.Value
	tf := fieldFuncs(funcs)
	dt := e.findDispatchTables(funcs)
	// invoked: unexported method names the package calls through an
	// interface (only its own code can): any method of that name may run
	// there.
	invoked := make(map[string][]*types.Interface)
	converted := make(map[types.Type]bool) // named types made into interface values

	for _, fn := range funcs {
		// Tests call the package's functions on their own, one goroutine
		// at a time; the locking contract is what the package's own
		// callers do. Test code calling or starting test code (a harness
		// and its workers) is followed like the package's.
		e.noteKeyedLocks(fn)
		tests := inTestFile(fn)
		unseen := func(f *ssa.Function) bool { return tests && !inTestFile(f) }
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if c, ok := instr.(ssa.CallInstruction); ok && c.Common().IsInvoke() && !tests && !c.Common().Method.Exported() {
					if iface, ok := c.Common().Value.Type().Underlying().(*types.Interface); ok {
						name := c.Common().Method.Name()
						invoked[name] = append(invoked[name], iface)
					}
				}
				if mi, ok := instr.(*ssa.MakeInterface); ok {
					if n, ok := types.Unalias(deref(mi.X.Type())).(*types.Named); ok {
						converted[n.Origin()] = true
					}
				}
				var callee *ssa.Function
				if c, ok := instr.(*ssa.Call); ok {
					callee, _ = calleeOf(e.pkg, c)
					if callee != nil && !unseen(callee) {
						e.calls[callee] = append(e.calls[callee], staticCall{caller: fn, instr: instr})
					}
					if f := e.calledBack(c); f != nil && !unseen(f) {
						e.calls[f] = append(e.calls[f], staticCall{caller: fn, instr: instr, callback: true})
					}
					if table := dt.calls[instr]; table != nil {
						for _, f := range dt.funcs[table] {
							if !unseen(f) {
								e.calls[f] = append(e.calls[f], staticCall{caller: fn, instr: instr})
							}
						}
					}
					if field := tf.calls[instr]; field != nil {
						for _, f := range tf.stored[field] {
							e.calls[f] = append(e.calls[f], staticCall{caller: fn, instr: instr})
						}
					}
				}
				// direct: the function a call or go statement of the
				// package's runs, as counted in calls or started.
				direct := callee
				gs := e.asGoStart(instr)
				if f := e.startedFunc(gs); f != nil && !unseen(f) {
					e.started[f] = append(e.started[f], gs)
					direct = f
				}
				// A function handed to a Go method, or a closure made only
				// for that, is started there (counted in started), not
				// handed out; a go statement's own arguments are.
				mc, _ := instr.(*ssa.MakeClosure)
				startedHere := mc != nil && startsClosure(mc)
				ops = instr.Operands(ops[:0])
				for i, o := range ops {
					f, ok := (*o).(*ssa.Function)
					if !ok || dt.quiet[instr] {
						continue // (put in a dispatch table, which is only called)
					}
					if _, goMethod := instr.(*ssa.Call); startedHere || goMethod && gs != nil && gs.value == ssa.Value(f) {
						continue
					}
					if d := e.declaredBehind(f); d != nil && !unseen(d) && !(i == 0 && d == direct) {
						// A method value or an instance handed out, even
						// to be called right here (go f()), runs the
						// declared function where the package does not see.
						e.escapes[d] = true
					}
					if _, isCall := instr.(*ssa.Call); unseen(f) || (isCall && i == 0 && f == callee) {
						continue
					}
					if g, isGo := instr.(*ssa.Go); isGo && i == 0 && g.Call.Value == f {
						continue // started, counted in started
					}
					if i == 0 && e.onlyCalled(instr, f) {
						continue // a closure made to be called or started right here
					}
					if tf.quiet[instr] {
						continue // kept in a field of the tests' own that is only called
					}
					if call := yieldCall(instr, f); call != nil {
						// The body of a range-over-func loop: it runs while
						// the iterator call does, as the loop's own code
						// (calleeOf counted that call).
						if body, _ := calleeOf(e.pkg, call); body != f {
							e.calls[f] = append(e.calls[f], staticCall{caller: fn, instr: call})
						}
						continue
					}
					e.escapes[f] = true
				}
				st, ok := instr.(*ssa.Store)
				if !ok {
					continue
				}
				if g, ok := st.Addr.(*ssa.Global); ok && fn.Name() != "init" {
					e.globalSet[g] = true
				}
				fa, ok := st.Addr.(*ssa.FieldAddr)
				if !ok {
					continue
				}
				if a, ok := pathOf(fa.X).Root.(*ssa.Alloc); ok && a.Parent() == fn &&
					(pathOf(fa.X).Steps == "" || pathOf(fa.X).Steps == "*;" && holdsFresh(a)) {
					continue // initialising a new value (also one a closure captured)
				}
				if v := fieldVar(fa.X.Type(), fa.Field); v != nil {
					e.mutated[v] = true
					if b, ok := st.Val.(*ssa.BinOp); ok && increment(b) {
						e.counted[v] = true
					}
					switch {
					case isFresh(st.Val):
						e.stores[v]++
					case isNil(st.Val):
						// cleared at shutdown: still never replaced
					default:
						e.storesOther[v] = true
					}
				}
			}
		}
	}
	for _, fn := range funcs {
		recv := fn.Signature.Recv()
		if recv == nil {
			continue
		}
		if n, ok := types.Unalias(deref(recv.Type())).(*types.Named); !ok || !converted[n.Origin()] {
			continue
		}
		if slices.ContainsFunc(invoked[fn.Name()], func(iface *types.Interface) bool {
			return types.Implements(recv.Type(), iface) || types.Implements(types.NewPointer(recv.Type()), iface)
		}) {
			e.escapes[fn] = true
		}
	}
}

// yieldCall returns the call of an iterator that instr hands f, the body
// of a range-over-func loop go/ssa made into a function: as the argument
// itself, or as the closure instr makes of it for that one call. Nil when
// instr does something else with f.
func yieldCall(instr ssa.Instruction, f *ssa.Function) *ssa.Call {
	if f.Synthetic != "range-over-func yield" {
		return nil
	}
	var arg ssa.Value = f
	if mc, ok := instr.(*ssa.MakeClosure); ok {
		refs := *mc.Referrers()
		if mc.Fn != f || len(refs) != 1 {
			return nil
		}
		instr, arg = refs[0], mc
	}
	call, ok := instr.(*ssa.Call)
	if !ok || call.Call.Value == arg || !slices.Contains(call.Call.Args, arg) {
		return nil
	}
	return call
}

// fixedSinceBuilt reports whether load reads an unexported field of this
// package that nothing writes after construction and whose value is not a
// map, slice, channel, struct or array: no other package can set it, and whatever is
// decided on the value (a pointer found nil or not) holds for good; what
// it points to is read by loads of its own.
func (e *engine) fixedSinceBuilt(load *ssa.UnOp) bool {
	if !e.immutableLoad(load) {
		return false
	}
	fa := load.X.(*ssa.FieldAddr)
	if v := fieldVar(fa.X.Type(), fa.Field); v == nil || v.Exported() {
		return false
	}
	switch load.Type().Underlying().(type) {
	case *types.Map, *types.Slice, *types.Chan:
		return false
	case *types.Struct, *types.Array:
		return false // its parts may be written one by one (m.quota.used++)
	}
	return true
}

// immutableLoad reports whether a load reads a field of this package that
// nothing writes after construction: such a value cannot go stale, even
// when read through a stale pointer.
func (e *engine) immutableLoad(load *ssa.UnOp) bool {
	fa, ok := load.X.(*ssa.FieldAddr)
	if !ok {
		return false
	}
	v := fieldVar(fa.X.Type(), fa.Field)
	return v != nil && v.Pkg() == e.pkg.Pkg && !e.mutated[v]
}

func fieldVar(t types.Type, i int) *types.Var {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	if s, ok := typeparamCore(t).(*types.Struct); ok && i < s.NumFields() {
		return s.Field(i)
	}
	return nil
}

// hasLockCalls reports whether fn calls a sync lock method directly.
func (e *engine) hasLockCalls(fn *ssa.Function) bool {
	if v, ok := e.locking[fn]; ok {
		return v
	}
	found := false
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if c, ok := instr.(ssa.CallInstruction); ok {
				if _, ok := syncLockOp(c.Common()); ok {
					found = true
				}
			}
		}
	}
	e.locking[fn] = found
	return found
}

// worthAnalysing: fn locks, or calls a function that does (of this
// package, or of another whose summary says so).
func (e *engine) worthAnalysing(fn *ssa.Function) bool {
	return e.locks(fn)
}

// locks reports whether fn takes a lock, itself or through the functions
// it calls (transitively within the package; through facts beyond it).
// Cycles count as not locking until proven otherwise.
func (e *engine) locks(fn *ssa.Function) bool {
	if v, ok := e.locking2[fn]; ok {
		return v
	}
	e.locking2[fn] = false
	v := e.hasLockCalls(fn)
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if v {
				break
			}
			if c, ok := instr.(ssa.CallInstruction); ok && e.locksTransitively(fn, c) {
				v = true
			}
		}
	}
	e.locking2[fn] = v
	return v
}

// locksTransitively reports whether the call may take a lock.
func (e *engine) locksTransitively(caller *ssa.Function, c ssa.CallInstruction) bool {
	if callee, _ := calleeOf(e.pkg, c); callee != nil {
		return callee != caller && e.locks(callee)
	}
	if c.Common().IsInvoke() {
		return false
	}
	if f := origin(c.Common().StaticCallee()); f != nil && e.external(f) {
		if s := e.importedSummary(f); s != nil && len(s.acquires) > 0 {
			return true
		}
	}
	return false
}

// declaredBehind returns the function of the package that a function
// value stands for when it is not that function itself: a generic
// function's instance, or the wrapper go/ssa makes for a method value
// (x.m, whose $bound closure calls m) or a method expression. Handing
// out either lets anyone call the declared function. Nil otherwise.
func (e *engine) declaredBehind(f *ssa.Function) *ssa.Function {
	if o := f.Origin(); o != nil {
		return o
	}
	if f.Synthetic == "" || f.Parent() != nil {
		return nil
	}
	obj, ok := f.Object().(*types.Func)
	if !ok || obj.Pkg() != e.pkg.Pkg {
		return nil
	}
	d := origin(e.pkg.Prog.FuncValue(obj))
	if d == nil || d == f {
		return nil
	}
	return d
}

// external reports whether f is a declared function of another package.
func (e *engine) external(f *ssa.Function) bool {
	switch f.Synthetic {
	case "", "from type information": // declared (here from export data)
	default:
		return false // wrappers shift parameters; their summaries do not apply
	}
	obj, ok := f.Object().(*types.Func)
	return ok && e.pass != nil && obj.Pkg() != nil && obj.Pkg() != e.pass.Pkg
}

// helperSummary returns the summary and argument binding of a call of a
// function of this package, or of another package that exported one.
func (e *engine) helperSummary(caller *ssa.Function, call ssa.CallInstruction) (*callSite, *summary) {
	if callee, cs := calleeOf(e.pkg, call); callee != nil {
		if callee == caller {
			return nil, nil
		}
		return cs, e.summaryOf(callee)
	}
	c := call.Common()
	if c.IsInvoke() {
		return nil, nil
	}
	if f := origin(c.StaticCallee()); f != nil && e.external(f) {
		// Another package's generic function: its fact is the origin's.
		if s := e.importedSummary(f); s != nil {
			return &callSite{instr: call, args: c.Args}, s
		}
	}
	return nil, nil
}

// exportFact publishes fn's summary for other packages, when fn is a
// declared, exported function or method.
func (e *engine) exportFact(fn *ssa.Function, s *summary) {
	obj, ok := fn.Object().(*types.Func)
	if !ok || !obj.Exported() || fn.Synthetic != "" || fn.Parent() != nil || e.pass == nil {
		return
	}
	if s.empty() {
		s = &summary{}
	} else {
		for _, t := range e.takesFirst(fn) {
			s.takesFirst = append(s.takesFirst, relLockAt{lock: relLock{path: t.rp, mode: t.op.mode}, rwmutex: t.op.rwmutex})
		}
	}
	if returnsFunc(fn) {
		s.iterLocks = e.returnedIterLocks(fn)
	}
	f := s.toFact()
	if len(f.Acquires)+len(f.Writes)+len(f.Results)+len(f.Yields)+len(f.Callbacks) == 0 {
		return
	}
	f.KeepsReceiver = fn.Signature.Recv() != nil && len(fn.Params) > 0 && !startsGoroutine(fn) && staysLocal(fn.Params[0], 0)
	e.pass.ExportObjectFact(obj, f)
}

// summaryOf analyses fn (once), records its gaps, and returns its summary.
// Recursion is cut: a function in the middle of its own analysis has no
// summary yet and counts as doing nothing.
func (e *engine) summaryOf(fn *ssa.Function) (sum *summary) {
	if s, ok := e.summaries[fn]; ok {
		return s
	}
	if e.inProgress[fn] {
		return nil
	}
	e.inProgress[fn] = true
	defer func() {
		e.inProgress[fn] = false
		if r := recover(); r != nil {
			e.res.Crashes = append(e.res.Crashes, Crash{Pos: fn.Pos(), Func: fn.String(),
				Value: fmt.Sprintf("%v\n%s", r, debug.Stack())})
			sum = nil
		}
		e.summaries[fn] = sum
	}()
	fs := e.analyzeFunction(fn)
	if fs == nil {
		return nil
	}
	fs.dump()
	fs.noteWriters()
	fs.noteClaimSites()
	unlocked := make(map[ssa.Value]bool) // by the lock's root, see writesOwnerUnlocked
	for _, g := range fs.findGaps() {
		if debugEnabled {
			fmt.Fprintf(os.Stderr, "gap %s kind=%d read=%v write=%v bopen=%v\n", fn, g.Kind, fs.e.pass.Fset.Position(g.Read), fs.e.pass.Fset.Position(g.Write), g.BOpenInst)
		}
		if !fs.drivesCodeUnderTest(g) && !fs.unsharedLocal(g) {
			v, ok := unlocked[g.Lock.Root]
			if !ok {
				v = fs.writesOwnerUnlocked(g.Lock.Root)
				unlocked[g.Lock.Root] = v
			}
			// Only where the lock is the owner's own (a field of the root
			// object, not of something it points to; a mutex kept behind
			// a pointer field counts).
			g.ownerUnlocked = v && ownFields(strings.TrimSuffix(g.Lock.Steps, "*;"))
			e.res.Gaps = append(e.res.Gaps, g)
		}
	}
	e.res.Reentries = append(e.res.Reentries, fs.reentries...)
	fs.noteUnlockedOwn()
	sum = fs.summarize()
	if debugEnabled {
		for _, w := range sum.writes {
			fmt.Fprintf(os.Stderr, "  summary write %+v\n", w)
		}
		for _, r := range sum.results {
			fmt.Fprintf(os.Stderr, "  summary result %+v\n", r)
		}
	}
	return sum
}

// summarize expresses what fs's function does in terms of its inputs.
func (fs *funcState) summarize() *summary {
	fn := fs.fn
	s := &summary{}
	released := make(map[pathKey]bool)
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if c, ok := instr.(ssa.CallInstruction); ok {
				if op, ok := syncLockOp(c.Common()); ok && op.kind == opRelease {
					released[op.path.key()] = true
				}
			}
		}
	}
	ownLock := func(held lockState, viaHelper bool) *relLock {
		for _, h := range held {
			for _, o := range h.openers {
				if a := fs.flow.acquires[o]; a.helper {
					// A sync.Map's call is a section of this function's
					// own, as a Lock and Unlock here would be; so is a
					// helper's whole section for what it hands back, when
					// this function always calls it (a wrapper that picks
					// one of two stores hands back a locked read only on
					// one way, which its callers cannot tell apart).
					if viaHelper && (inPlace(fn, a.instr) || fs.always(a.instr)) || isSyncMapCall(a.instr) {
						if rp, ok := toRel(fn, h.path); ok {
							return &relLock{path: rp, mode: h.mode}
						}
					}
					continue
				}
				if rp, ok := toRel(fn, h.path); ok && released[h.key] {
					return &relLock{path: rp, mode: h.mode}
				}
			}
		}
		return nil
	}
	for _, a := range fs.flow.acquires {
		if a.helper || !released[a.path.key()] || strings.Contains(a.path.Steps, "[0x") {
			continue // an element chosen by a local index means nothing to callers
		}
		if fs.dropsCallerLock[a.path.key()] {
			continue // called with the lock held: it drops and retakes it, opening no section of its own
		}
		if rp, ok := toRel(fn, a.path); ok {
			l := relLock{path: rp, mode: a.mode}
			if !slices.Contains(s.acquires, l) {
				s.acquires = append(s.acquires, l)
			}
		}
	}
	// Helper sections of callees are this function's sections too.
	for _, a := range fs.flow.acquires {
		if !a.helper {
			continue
		}
		if rp, ok := toRel(fn, a.path); ok {
			l := relLock{path: rp, mode: a.mode}
			if !slices.Contains(s.acquires, l) {
				s.acquires = append(s.acquires, l)
			}
		}
	}
	wb := make(map[*ssa.BasicBlock][]int)
	testsParamType := testsParamTypes(fn)
	for i, w := range fs.writes {
		wb[w.instr.Block()] = append(wb[w.instr.Block()], i)
	}
	for i := range fs.writes {
		w := &fs.writes[i]
		rp, ok := toRel(fn, w.loc)
		if !ok {
			continue
		}
		rw := relWrite{loc: rp, kind: w.kind, collection: w.collection, removal: w.removal, takes: w.takes, key: w.key,
			swaps: w.swaps || fs.swapsOut(w), empties: w.empties, merges: w.merges,
			typeReqs: w.typeReqs}
		if testsParamType {
			rw.typeReqs = append(typeReqsAt(fn, w.instr.Block()), rw.typeReqs...)
		}
		stored := w.stored
		if w.kind == writeCall {
			rw.kind, rw.fixed, stored = w.inner, w.fixed, w.storedArg
		}
		if rw.fixed == "" {
			rw.fixed = fs.fixedKey(stored)
		}
		if p, ok := throughInterfaces(stored).(*ssa.Parameter); ok {
			// Handed on as it came, or only put into an interface (a
			// wrapper's Store of a V, kept in a sync.Map as any).
			rw.storedParam = 1 + paramIndex(fn, p)
		}
		rw.keyFrom, rw.keyMarks, rw.keyKnown = fs.summaryKey(w)
		data := fs.dataTaint(w.data)
		for i, p := range fn.Params {
			if data.has(fs.inputLabel[p]) {
				rw.dataFrom = append(rw.dataFrom, i)
			}
		}
		for l, pf := range fs.inputField {
			if data.has(l) && !slices.Contains(rw.dataFields, pf) {
				rw.dataFields = append(rw.dataFields, pf)
			}
		}
		for _, pf := range w.inputFields {
			if !slices.Contains(rw.dataFields, pf) {
				rw.dataFields = append(rw.dataFields, pf)
			}
		}
		slices.SortFunc(rw.dataFields, func(a, b paramField) int { return cmp.Or(a.Param-b.Param, a.Field-b.Field) })
		for i, v := range fn.FreeVars {
			if data.has(fs.inputLabel[v]) && !fs.reassignedBefore(v, w.instr) {
				rw.dataFrom = append(rw.dataFrom, -1-i) // as relPath.param numbers them
			}
		}
		if w.kind == writeCall {
			// The helper's own lock, or else the one this function holds
			// around the call: a wrapper that locks and hands over to a
			// ...Locked helper writes under its own section.
			if rw.lock = fs.helperLock(w); rw.lock == nil {
				rw.lock = ownLock(w.held, false)
			}
		} else {
			rw.lock = ownLock(w.held, false)
		}
		var k pathKey
		if len(w.held) > 0 {
			k = w.held[0].key
		}
		// Any fresh read that decides the write may be what a caller's
		// stale read needs re-checked; the caller picks the ones it needs.
		anyLoc := func(Path) bool { return true }
		// Version guards first: they are what a caller needs most, and
		// the guards kept are bounded.
		gs := fs.versionGuards(w)
		if len(w.held) > 0 {
			gs = append(gs, fs.inlineGuards(w, k, anyLoc, wb, w.loc)...)
		} else {
			gs = append(gs, fs.unlockedGuards(w, wb)...)
		}
		gs = append(gs, w.guards...)
		rw.resolved = fs.resolvedEarlier(w)
		for _, g := range gs {
			gl, ok := toRel(fn, g.loc)
			if !ok || len(rw.guards) >= maxGuards {
				continue
			}
			against := 0
			if g.against != nil {
				// A helper's version guard is this function's when what
				// it compares with comes from a parameter here too.
				p := fs.paramCarried(g.against, 0)
				if p < 0 {
					continue
				}
				against = 1 + p
			}
			// A give-up the caller hears of: this function's own, or a
			// callee's whose error it returns.
			fails := g.missingFails && (g.read >= 0 || errorReturned(w.instr))
			rg := relGuard{loc: gl, existence: g.existence, writeOnMissing: g.writeOnMissing, missingCreates: g.missingCreates,
				missingFails: fails, against: against}
			if !slices.Contains(rw.guards, rg) {
				rw.guards = append(rw.guards, rg)
			}
		}
		s.addWrite(rw)
	}
	fs.summarizeEnsures(s, wb, ownLock)
	// relReadOf expresses read ri in terms of fn's inputs, when it was
	// made under a lock fn takes (or its caller holds, for a ...Locked
	// helper).
	// Whether fn reads under its caller's lock, asked once: by its name or
	// doc comment (saysCaller), or as a plain helper holding no lock.
	asked, saysCaller, plain := false, false, false
	underCaller := func() bool {
		if !asked {
			asked = true
			saysCaller = expectsCallerLock(fn)
			plain = !saysCaller && fs.locksNothing()
		}
		return saysCaller || plain
	}
	relReadOf := func(ri int) (relRead, bool) {
		r := &fs.reads[ri]
		l := ownLock(r.held, true)
		if r.recheckOnly {
			return relRead{}, false // (see readSite.recheckOnly)
		}
		callerLock := l == nil && len(r.held) == 0 && r.instr != nil && underCaller()
		if l == nil && !callerLock {
			return relRead{}, false
		}
		loc, ok := toRel(fn, r.loc)
		if !ok {
			return relRead{}, false
		}
		rr := relRead{loc: loc, callerLock: callerLock, recheckOnly: callerLock && plain,
			key: 1 + paramIndex(fn, asParam(boxed(r.key)))}
		rr.keyFrom, rr.keyMarks, rr.keyKnown = fs.readKeyOrigin(r)
		if l != nil {
			rr.lock = *l
		}
		return rr, true
	}
	found := fs.returnsFound()
	flags := fs.flagResults()
	verdicts := fs.verdictResults()
	for _, b := range fn.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok || b == fn.Recover {
			continue // (a deferred recover's return hands back what the results last held)
		}
		// Only what the results carry by data: a helper that looks
		// something up and then returns a new object it created returns
		// no stale value, even if it filled the object from what it read.
		// Of several results, each read is tied to the ones that carry it
		// (an error built from what was read does not taint the object
		// returned beside it).
		for i, v := range ret.Results {
			// An error describes a failure: it carries a read only when it
			// is the value read (a stored error handed back), not when it
			// was built from what was read.
			failure := isError(v.Type())
			if mi, ok := v.(*ssa.MakeInterface); ok {
				v = mi.X
			}
			carried := fs.taint[v]
			verdict := i < len(verdicts) && verdicts[i]
			switch {
			case verdict:
				// return ErrExists / return nil: which one says what the
				// tests on the way to this return found (by the block's
				// control, or by the phi choosing among them).
				carried = append(bitset(nil), carried...)
				carried.unionWith(fs.blockCtl[b.Index])
				carried.unionWith(fs.storesCtl(ret.Results[i]))
			case i < len(flags) && flags[i] && boolConst(fs.assigned(v)):
				// return v, true / return nil, false: the flag says what
				// the tests on the way to this return found, as
				// return v, ok says it by data.
				carried = fs.blockCtl[b.Index]
			case isFresh(v):
				continue
			}
			bounds := fs.boundTests(b, ret.Results[i])
			var bit uint32
			if len(ret.Results) > 1 && i < 32 {
				bit = 1 << i
			}
			carried.each(func(ri int) {
				if failure && !verdict && !fs.carriesDirectly(ret.Results[i], ri) {
					return
				}
				r := &fs.reads[ri]
				if verdict && fs.e.sentinelLoad(r.instr) {
					return // the failure returned, not what decided it
				}
				if ld, ok := r.instr.(*ssa.UnOp); ok && fs.e.immutableLoad(ld) &&
					(plainType(ld.Type()) || fs.carriesDirectly(ret.Results[i], ri) || fs.e.fixedSinceBuilt(ld)) {
					// Set when the object was built and never changed: the
					// value (or the pointer handed back) cannot be stale.
					// What it points to can, so len(m) of such a map counts.
					return
				}
				rr, ok := relReadOf(ri)
				if !ok {
					return
				}
				// Only a listing has an order to choose.
				_, listing := ret.Results[i].Type().Underlying().(*types.Slice)
				rr.results, rr.picked, rr.orderOnly = bit, fs.picked(ri), listing && fs.ordersOnly(ri)
				rr.found = found
				rr.bound = slices.ContainsFunc(bounds, func(c ssa.Value) bool { return fs.comparesBound(c, ri) })
				s.addResult(rr)
			})
		}
	}
	if ei, tests := fs.verdictTests(); len(tests) > 0 {
		var bit uint32
		if ei > 0 && ei < 32 {
			bit = 1 << ei
		}
		for _, t := range tests {
			if rr, ok := relReadOf(t.read); ok {
				rr.results, rr.missing, rr.sentinel = bit, t.missing, t.sentinel
				s.addResult(rr)
			}
		}
	}
	fs.summarizeOuts(s, ownLock)
	s.callbacks = fs.callbackLocks()
	return s
}

// summarizeOuts records, for a closure, the reads under its own lock it
// stores into the variables it captured.
func (fs *funcState) summarizeOuts(s *summary, ownLock func(lockState, bool) *relLock) {
	if fs.fn.Parent() == nil || len(fs.fn.FreeVars) == 0 {
		return
	}
	for _, b := range fs.fn.Blocks {
		for _, instr := range b.Instrs {
			st, ok := instr.(*ssa.Store)
			if !ok {
				continue
			}
			p := pathOf(st.Addr)
			fv, ok := p.Root.(*ssa.FreeVar)
			if !ok || p.Steps != "" && !ownFields(p.Steps) {
				continue // (a store through the variable's pointer is not to the variable)
			}
			free := slices.Index(fs.fn.FreeVars, fv)
			if free < 0 {
				continue
			}
			fs.taint[st.Val].each(func(ri int) {
				r := &fs.reads[ri]
				if r.instr == nil {
					return // an input, not a read
				}
				l := ownLock(r.held, true)
				if l == nil {
					return
				}
				loc, ok := toRel(fs.fn, r.loc)
				if !ok {
					return
				}
				out := relRead{loc: loc, lock: *l, free: free, pos: r.pos}
				if !slices.ContainsFunc(s.outs, func(o relRead) bool {
					return o.loc == out.loc && o.lock == out.lock && o.free == out.free && o.pos == out.pos
				}) {
					s.outs = append(s.outs, out)
				}
			})
		}
	}
}

// maxGuards bounds the re-checks a summary keeps per write.
const maxGuards = 8

// expectsCallerLock reports whether fn says that its caller holds the
// lock for it, by Go's naming convention (closeLocked, countLocked) or in
// its doc comment ("Lock should be held.", "Caller must hold c.mu."): what
// it reads with no lock of its own is read under the caller's. A getter
// that callers also use with no lock held reads what needs none.
func expectsCallerLock(fn *ssa.Function) bool {
	if fn.Parent() != nil {
		return false
	}
	if namedLocked(fn) {
		return true
	}
	decl, ok := fn.Syntax().(*ast.FuncDecl)
	return ok && decl.Doc != nil && saysLockHeld(decl.Doc.Text())
}

// locksNothing reports whether fn holds no lock anywhere, its own or a
// helper's: a plain helper (c.get(k) in go-cache) reads under whatever
// lock its caller holds, as if its body were written there. Unless it
// says that it expects the lock held, its reads only re-check (see
// readSite.recheckOnly).
func (fs *funcState) locksNothing() bool {
	if fs.fn.Parent() != nil {
		return false
	}
	for i := range fs.reads {
		if len(fs.reads[i].held) > 0 {
			return false
		}
	}
	for i := range fs.writes {
		if len(fs.writes[i].held) > 0 {
			return false
		}
	}
	return true
}

// namedLocked reports whether fn's name says, by Go's convention, that
// its caller holds the lock for it (closeLocked, count_locked).
func namedLocked(fn *ssa.Function) bool {
	name := fn.Name()
	return fn.Parent() == nil && (strings.HasSuffix(name, "Locked") || strings.HasSuffix(name, "locked")) &&
		!strings.HasSuffix(name, "Unlocked") && !strings.HasSuffix(name, "unlocked")
}

var (
	lockHeld = regexp.MustCompile(`(?i)\b(locks?|mutex|\w*mu)\b.*\b(held|holds?|holding)\b|\b(held|holds?|holding)\b.*\b(locks?|mutex|\w*mu)\b`)
	negation = regexp.MustCompile(`(?i)\b(not|no|never|without|unlocked)\b|n't\b`)
	// A full stop ends a sentence where a space or the line's end follows
	// (c.mu is one word).
	sentenceEnd = regexp.MustCompile(`\.(\s|$)|;|\n`)
)

// saysLockHeld reports whether some sentence of doc says a lock is held
// (on entry, by the caller), and none of its words denies it.
func saysLockHeld(doc string) bool {
	for _, s := range sentenceEnd.Split(doc, -1) {
		if lockHeld.MatchString(s) && !negation.MatchString(s) {
			return true
		}
	}
	return false
}

// helperLock returns, relative to fs's function, the lock that the helper
// called at w takes itself, if any.
func (fs *funcState) helperLock(w *writeSite) *relLock {
	for _, h := range w.held {
		for _, o := range h.openers {
			if a := fs.flow.acquires[o]; a.helper && a.instr == w.instr {
				if rp, ok := toRel(fs.fn, h.path); ok {
					return &relLock{path: rp, mode: h.mode}
				}
			}
		}
	}
	return nil
}

// resolvedEarlier lists the locations fs's function reads under the lock
// of w, in an earlier section, that decide w (and those its helpers
// resolved for it).
func (fs *funcState) resolvedEarlier(w *writeSite) []relPath {
	var out []relPath
	if len(w.held) == 0 {
		return nil
	}
	add := func(p Path) {
		if rp, ok := toRel(fs.fn, p); ok && len(out) < maxGuards && !slices.Contains(out, rp) {
			out = append(out, rp)
		}
	}
	fs.blockCtl[w.instr.Block().Index].each(func(ri int) {
		r := &fs.reads[ri]
		for _, h := range w.held {
			if _, ok := r.held.lookup(h.key); ok && !sameSection(r.held, w.held, h.key) {
				add(r.loc)
				return
			}
		}
	})
	for _, p := range w.resolved {
		add(p)
	}
	return out
}

// unlockedGuards finds re-checks in a function that holds no lock itself
// (it relies on its caller's): branches on reads of the written location.
func (fs *funcState) unlockedGuards(w *writeSite, wb map[*ssa.BasicBlock][]int) []guard {
	var out []guard
	fs.eachDep(w.instr.Block(), func(d branch) {
		cond := ifCond(d.block)
		if cond == nil || fs.versionFlag(cond) {
			return
		}
		fs.directReads(cond, func(ri int) {
			r2 := &fs.reads[ri]
			if len(r2.held) != 0 {
				return
			}
			g := guard{loc: r2.loc, read: ri, branch: d}
			if subj, missing, ok := existenceTest(cond); ok && fs.taint[subj].has(ri) {
				g.existence = true
				g.writeOnMissing = d.succ == missing
				g.missingCreates = fs.sideWrites(branch{d.block, missing}, w.loc, wb, false)
				g.missingFails = !g.writeOnMissing && fs.failsAloud(d.block.Succs[missing], w)
			}
			out = append(out, g)
		})
	})
	return out
}

// BuildSSA builds SSA for the package being analysed, with its imports
// known from types only.
func BuildSSA(pass *analysis.Pass) *ssa.Package {
	prog := ssa.NewProgram(pass.Fset, ssa.BuilderMode(0))
	for _, p := range pass.Pkg.Imports() {
		prog.CreatePackage(p, nil, nil, true)
	}
	pkg := prog.CreatePackage(pass.Pkg, pass.Files, pass.TypesInfo, false)
	pkg.Build()
	return pkg
}

// packageFunctions lists every function of the package with a body:
// declared functions and methods, the package initialiser (whose closures
// include function literals in package-level var initialisers, which
// buildssa's SrcFuncs leaves out), and all nested function literals.
func packageFunctions(pass *analysis.Pass, pkg *ssa.Package) []*ssa.Function {
	var out []*ssa.Function
	var add func(fn *ssa.Function)
	add = func(fn *ssa.Function) {
		if fn == nil {
			return
		}
		out = append(out, fn)
		for _, anon := range fn.AnonFuncs {
			add(anon)
		}
	}
	for _, f := range pass.Files {
		for _, decl := range f.Decls {
			if fd, ok := decl.(*ast.FuncDecl); ok && fd.Body != nil {
				if obj, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func); ok {
					add(pkg.Prog.FuncValue(obj))
				}
			}
		}
	}
	add(pkg.Func("init"))
	return out
}

// writeOnceLoad reports whether instr loads a field of this package that
// is assigned exactly once after construction, with a fresh allocation.
func (e *engine) writeOnceLoad(instr ssa.Instruction) bool {
	load, ok := instr.(*ssa.UnOp)
	if !ok {
		return false
	}
	fa, ok := load.X.(*ssa.FieldAddr)
	if !ok {
		return false
	}
	v := fieldVar(fa.X.Type(), fa.Field)
	return v != nil && v.Pkg() == e.pkg.Pkg && e.stores[v] <= 1 && !e.storesOther[v]
}

// keptEntryLookup reports whether instr looks an entry up in an
// unexported map field of this package whose entries, once stored, stay: the map is made at
// construction and never replaced, and every store into it adds a key
// only where a lookup of it, in the same function, found none (see
// insertsIfAbsent); nothing deletes from it, clears it, or gets hold of
// it other than to look up, range over or take its length.
func (e *engine) keptEntryLookup(instr ssa.Instruction) bool {
	lk, ok := instr.(*ssa.Lookup)
	if !ok {
		return false
	}
	f := mapField(lk.X)
	if f == nil || f.Pkg() != e.pkg.Pkg || f.Exported() || e.mutated[f] {
		return false // (other packages may write an exported field)
	}
	if e.keptEntries == nil {
		e.keptEntries = make(map[*types.Var]bool)
	}
	return memoised(e.keptEntries, f, e.entriesStay)
}

// entriesStay walks the package's loads of the map field f (see
// keptEntryLookup).
func (e *engine) entriesStay(f *types.Var) bool {
	for _, fn := range e.funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				load, ok := instr.(*ssa.UnOp)
				if !ok || mapField(load) != f {
					continue
				}
				for _, ref := range *load.Referrers() {
					switch x := ref.(type) {
					case *ssa.Lookup, *ssa.Range, *ssa.DebugRef:
					case *ssa.MapUpdate:
						if x.Map != load || !insertsIfAbsent(x, f) {
							return false
						}
					case *ssa.Call:
						if bi, ok := x.Call.Value.(*ssa.Builtin); !ok || bi.Name() != "len" {
							return false
						}
					default:
						return false
					}
				}
			}
		}
	}
	return true
}

// isFresh reports whether v is a newly allocated object.
func isFresh(v ssa.Value) bool {
	switch v.(type) {
	case *ssa.Alloc, *ssa.MakeMap, *ssa.MakeChan, *ssa.MakeSlice, *ssa.MakeClosure:
		return true
	}
	return false
}

// sequentialTest reports whether fn is (a closure of) a test, benchmark,
// fuzz target, example or suite test method that runs on one goroutine:
// it starts none and runs no subtest in parallel. What such a test changes between two
// sections of a lock it changes itself (saving state, removing it,
// restoring it on purpose).
func sequentialTest(fn *ssa.Function) bool {
	top, ok := testRoot(fn)
	// Parallel subtests run beside each other too.
	return ok && !runsGoroutines(top, parallelTest, nil, nil)
}

// testRoot returns the function fn is (a closure of), when that is a
// test, benchmark, fuzz target, example or suite test method.
func testRoot(fn *ssa.Function) (*ssa.Function, bool) {
	top := fn
	for top.Parent() != nil {
		top = top.Parent()
	}
	if !inTestFile(top) {
		return nil, false
	}
	// A suite's Test methods (testify's convention) run one at a time too.
	name := top.Name()
	if !strings.HasPrefix(name, "Test") && (top.Signature.Recv() != nil || !strings.HasPrefix(name, "Benchmark") &&
		!strings.HasPrefix(name, "Fuzz") && !strings.HasPrefix(name, "Example")) {
		return nil, false
	}
	return top, true
}

func parallelTest(callee *ssa.Function) bool {
	return callee.Pkg.Pkg.Path() == "testing" && (callee.Name() == "Parallel" || callee.Name() == "RunParallel")
}

// stagesFake reports whether g is a sequential test's staging of a fake
// the tests declare: the test (and the test code it calls) starts no
// goroutine and runs no subtest in parallel. The code under test writes
// the fake only through what the test hands it, and a call of it returns
// before the test goes on; goroutines it starts on its own (a server's
// loops) are taken to serve the test's calls, not to write the fake
// behind its back, and so is a goroutine the test starts only to run a
// server's Serve loop on a listener (servesListener).
//
// A gap in a method of the fake itself (a stub that plays a competing
// writer when the code under test calls it) is the same staging when
// every value of the fake is made by such a test (fakeOfQuietTests).
func (e *engine) stagesFake(g *Gap) bool {
	if !locksFake(g) {
		return false
	}
	top := g.Fn
	for top.Parent() != nil {
		top = top.Parent()
	}
	if testEntry(top) {
		return !runsGoroutines(top, parallelTest, inTestFile, servesListener)
	}
	recv := top.Signature.Recv()
	return recv != nil && len(top.Params) > 0 && g.Lock.Root == top.Params[0] && e.fakeOfQuietTests(recv.Type(), lockClass(g.Lock))
}

// fakeOfQuietTests reports whether every value of t, a type the tests
// declare (or a pointer to one), is allocated in a test (by a composite
// literal, new or a variable of the test or a closure of it; not in a
// helper, another type's field or a collection) that neither runs a
// subtest in parallel nor starts a goroutine, itself or in the code of
// the package it calls, that may take lock class (testStartsLocker). The
// code under test calls the fake's methods then on the test's behalf,
// while the test waits, and no goroutine it starts takes the fake's lock
// beside them. (Code of other packages is not seen, as elsewhere.)
func (e *engine) fakeOfQuietTests(t types.Type, class string) bool {
	named, ok := types.Unalias(deref(t)).(*types.Named)
	if !ok {
		return false
	}
	made := 0
	for _, fn := range e.funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				var elem types.Type
				switch x := instr.(type) {
				case *ssa.Alloc:
					elem = deref(x.Type())
				case *ssa.MakeSlice:
					elem = x.Type().Underlying().(*types.Slice).Elem()
				case *ssa.MakeMap:
					elem = x.Type().Underlying().(*types.Map).Elem()
				case *ssa.MakeChan:
					elem = x.Type().Underlying().(*types.Chan).Elem()
				default:
					continue
				}
				if !holdsValueOf(elem, named, 0) {
					continue
				}
				if _, ok := instr.(*ssa.Alloc); !ok || !types.Identical(elem, named) {
					return false
				}
				top, ok := testRoot(fn)
				if !ok || e.testStartsLocker(top, class) {
					return false
				}
				made++
			}
		}
	}
	return made > 0
}

// holdsValueOf reports whether a value of type t is, or holds by value (in
// a field or array element, a few levels deep), a value of named.
func holdsValueOf(t types.Type, named *types.Named, depth int) bool {
	if depth > 4 {
		return false
	}
	switch u := types.Unalias(t).(type) {
	case *types.Named:
		if u.Origin() == named.Origin() {
			return true
		}
		return holdsValueOf(u.Underlying(), named, depth+1)
	case *types.Struct:
		for i := range u.NumFields() {
			if holdsValueOf(u.Field(i).Type(), named, depth+1) {
				return true
			}
		}
	case *types.Array:
		return holdsValueOf(u.Elem(), named, depth+1)
	}
	return false
}

// servesListener reports whether the go statement starts nothing but a
// server's Serve loop on a listener (a method named Serve... taking a
// net.Listener, as net/http's and gRPC's servers have): directly, or in a
// closure that otherwise only reports how the loop ended (testing's
// methods, errors, fmt, log, builtins, a WaitGroup's Done). Such a
// goroutine runs the code under test on the requests the test makes.
func servesListener(g *ssa.Go) bool {
	if servesCall(g.Common()) {
		return true
	}
	mc, ok := g.Call.Value.(*ssa.MakeClosure)
	if !ok || len(g.Call.Args) != 0 {
		return false
	}
	fn, ok := mc.Fn.(*ssa.Function)
	if !ok || len(fn.AnonFuncs) > 0 {
		return false
	}
	serves := false
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if _, ok := instr.(*ssa.Go); ok {
				return false
			}
			call, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			c := call.Common()
			switch {
			case servesCall(c):
				serves = true
				continue
			case testingMethod(c, "Log", "Logf", "Error", "Errorf", "Fatal", "Fatalf"):
				continue
			}
			if _, ok := c.Value.(*ssa.Builtin); ok {
				continue
			}
			callee := c.StaticCallee()
			if callee == nil || callee.Pkg == nil {
				return false
			}
			switch callee.Pkg.Pkg.Path() {
			case "errors", "fmt", "log":
				continue
			case "sync":
				if callee.Name() == "Done" {
					continue
				}
			}
			return false
		}
	}
	return serves
}

// servesCall reports whether c calls a method named Serve... with a
// net.Listener argument.
func servesCall(c *ssa.CallCommon) bool {
	name, sig, ok := calledMethod(c)
	if !ok {
		return false
	}
	if !strings.HasPrefix(name, "Serve") || sig.Recv() == nil {
		return false
	}
	for i := range sig.Params().Len() {
		if n, ok := types.Unalias(sig.Params().At(i).Type()).(*types.Named); ok && n.Obj().Pkg() != nil &&
			n.Obj().Pkg().Path() == "net" && n.Obj().Name() == "Listener" {
			return true
		}
	}
	return false
}

// testStartsLocker reports whether the test top runs a subtest in
// parallel, starts a goroutine itself (or in the test code it calls), or
// calls code of the package that starts one that may take the write lock
// of class (see runsWriteLock) or whose code cannot be told (a group's Go,
// time.AfterFunc).
func (e *engine) testStartsLocker(top *ssa.Function, class string) bool {
	if class == "" {
		return true
	}
	// Asked for every reentry and every allocation of a fake in a test:
	// the walks below follow the package's calls, so each answer is kept.
	key := testLockerKey{top, class}
	if v, ok := e.testLockerMemo[key]; ok {
		return v
	}
	v := handsFunctionOut(top) || runsGoroutines(top, parallelTest, inTestFile, nil) ||
		runsGoroutines(top, parallelTest, nil, func(g *ssa.Go) bool { return !e.runsWriteLock(g, class) })
	if e.testLockerMemo == nil {
		e.testLockerMemo = make(map[testLockerKey]bool)
	}
	e.testLockerMemo[key] = v
	return v
}

// testLockerKey is a test and a lock class testStartsLocker was asked
// about.
type testLockerKey struct {
	top   *ssa.Function
	class string
}

// handsFunctionOut reports whether the test fn, or a closure of it, hands
// a function to another package's code, which may run it on goroutines
// of its own (a stress helper, an Eventually polling from one), other
// than to testing's own methods or a test driver (testDriver) that runs
// it on the test's goroutine.
func handsFunctionOut(fn *ssa.Function) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			c := call.Common()
			callee := c.StaticCallee()
			if callee != nil && (callee.Pkg == fn.Pkg || callee.Pkg == nil || callee.Pkg.Pkg.Path() == "testing" || testDriver(c)) {
				continue
			}
			if callee == nil && !c.IsInvoke() {
				continue // calling a function value: what runs is the test's
			}
			for _, a := range c.Args {
				if _, isFunc := a.Type().Underlying().(*types.Signature); isFunc {
					return true
				}
			}
		}
	}
	return slices.ContainsFunc(fn.AnonFuncs, handsFunctionOut)
}

// runsWriteLock reports whether the goroutine g starts may take the write
// lock of class: the function it runs, a closure it makes or a function of
// the package it calls does; or what it runs is not known (a function
// value it calls further on is not followed, as runsGoroutines does not
// follow one either). An interface
// method it calls is any of the package's methods of that name on a type
// that implements the interface (another package's method would have to
// call back into this one).
func (e *engine) runsWriteLock(g *ssa.Go, class string) bool {
	starts, known := e.callees(g.Common())
	if !known {
		return true
	}
	seen := make(map[*ssa.Function]bool)
	var locks func(f *ssa.Function) bool
	locks = func(f *ssa.Function) bool {
		if seen[f] {
			return false
		}
		seen[f] = true
		for _, b := range f.Blocks {
			for _, instr := range b.Instrs {
				c, ok := instr.(ssa.CallInstruction)
				if !ok {
					continue
				}
				if op, ok := syncLockOp(c.Common()); ok {
					if op.kind == opAcquire && op.mode == Write && lockClass(op.path) == class {
						return true
					}
					continue
				}
				if callees, _ := e.callees(c.Common()); slices.ContainsFunc(callees, locks) {
					return true
				}
			}
		}
		return slices.ContainsFunc(f.AnonFuncs, locks)
	}
	return slices.ContainsFunc(starts, locks)
}

// callees returns the functions of the package c may call: its static
// callee (a closure's function), or for an interface method the package's
// methods of that name on types implementing the interface; known is false
// when c calls a function value.
func (e *engine) callees(c *ssa.CallCommon) (fns []*ssa.Function, known bool) {
	if c.IsInvoke() {
		iface, ok := c.Value.Type().Underlying().(*types.Interface)
		if !ok {
			return nil, false
		}
		for _, fn := range e.funcs {
			if recv := fn.Signature.Recv(); recv != nil && fn.Name() == c.Method.Name() && types.Implements(recv.Type(), iface) {
				fns = append(fns, fn)
			}
		}
		return fns, true
	}
	if _, builtin := c.Value.(*ssa.Builtin); builtin {
		return nil, true
	}
	callee := c.StaticCallee()
	if callee == nil {
		return nil, false
	}
	if callee.Pkg == e.pkg {
		fns = append(fns, callee)
	}
	return fns, true
}

// runsGoroutines reports whether fn, a closure it makes or a function of
// its package it calls, starts a goroutine: by a go statement (other than
// those skip accepts), a group's Go method (sync.WaitGroup, errgroup),
// time.AfterFunc, or a call also says does.
func runsGoroutines(fn *ssa.Function, also, follow func(callee *ssa.Function) bool, skip func(*ssa.Go) bool) bool {
	seen := make(map[*ssa.Function]bool)
	var starts func(f *ssa.Function) bool
	starts = func(f *ssa.Function) bool {
		if seen[f] {
			return false
		}
		seen[f] = true
		for _, b := range f.Blocks {
			for _, instr := range b.Instrs {
				if g, ok := instr.(*ssa.Go); ok {
					if skip != nil && skip(g) {
						continue
					}
					return true
				}
				call, ok := instr.(ssa.CallInstruction)
				if !ok {
					continue
				}
				if m := call.Common().Method; m != nil && m.Name() == "Go" {
					return true
				}
				callee := call.Common().StaticCallee()
				if callee == nil || callee.Pkg == nil {
					continue
				}
				switch {
				case callee.Name() == "Go" && callee.Signature.Recv() != nil:
					return true
				case callee.Pkg.Pkg.Path() == "time" && callee.Name() == "AfterFunc":
					return true
				case also != nil && also(callee):
					return true
				case callee.Pkg == fn.Pkg && (follow == nil || follow(callee)) && starts(callee):
					return true
				}
			}
		}
		return slices.ContainsFunc(f.AnonFuncs, starts)
	}
	return starts(fn)
}

// inTestFile reports whether fn is declared in a _test.go file.
func inTestFile(fn *ssa.Function) bool {
	return strings.HasSuffix(fn.Prog.Fset.Position(fn.Pos()).Filename, "_test.go")
}

// reassignedBefore reports whether the closure assigns the captured
// variable v on every way to instr: what instr writes from v is then its
// own value, not the caller's.
func (fs *funcState) reassignedBefore(v *ssa.FreeVar, instr ssa.Instruction) bool {
	for _, ref := range *v.Referrers() {
		if st, ok := ref.(*ssa.Store); ok && st.Addr == v && fs.dominates(st, instr) {
			return true
		}
	}
	return false
}

// always reports whether instr runs on every way through the function
// that does not branch away on a test (no control dependence).
func (fs *funcState) always(instr ssa.Instruction) bool {
	return fs.cd != nil && len(fs.cd.deps[instr.Block().Index]) == 0
}

// foundResult reports whether sig has one result, a bool.
func foundResult(sig *types.Signature) bool {
	r := sig.Results()
	return r.Len() == 1 && types.Identical(r.At(0).Type().Underlying(), types.Typ[types.Bool])
}

// boolConst reports whether v is the constant true or false.
func boolConst(v ssa.Value) bool {
	c, ok := v.(*ssa.Const)
	return ok && c.Value != nil && c.Value.Kind() == constant.Bool
}

// returnsFound reports whether fs's function returns only whether an
// entry is there: its one result, a bool, is on every return the found
// result of a comma-ok lookup of shared state, or of a call of a helper
// that returns only that.
func (fs *funcState) returnsFound() bool {
	if !foundResult(fs.fn.Signature) {
		return false
	}
	return everyReturn(fs.fn, func(ret *ssa.Return) bool {
		return len(ret.Results) == 1 && (fs.foundValue(ret.Results[0]) || fs.foundConst(ret.Results[0], ret.Block()))
	})
}

// everyReturn reports whether fn returns somewhere and every return
// (but the one after a recovered panic) satisfies ok.
func everyReturn(fn *ssa.Function, ok func(*ssa.Return) bool) bool {
	returns := 0
	for _, b := range fn.Blocks {
		ret, isReturn := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !isReturn || b == fn.Recover {
			continue
		}
		if !ok(ret) {
			return false
		}
		returns++
	}
	return returns > 0
}

// flagResults reports, for each result of fs's function, whether it is a
// flag: a bool that every return sets to a constant or to the found
// result of a lookup. Such a flag says what the tests on the way found.
// A bool computed otherwise on some return (return rt.sub != nil) makes
// the constants on the others plain answers, not reports of a lookup.
func (fs *funcState) flagResults() []bool {
	sig := fs.fn.Signature.Results()
	flags := make([]bool, sig.Len())
	for i := range flags {
		flags[i] = types.Identical(sig.At(i).Type().Underlying(), types.Typ[types.Bool])
	}
	for _, b := range fs.fn.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok || b == fs.fn.Recover {
			continue
		}
		for i, v := range ret.Results {
			if i < len(flags) && flags[i] && !boolConst(fs.assigned(v)) && !fs.foundValue(v) {
				flags[i] = false
			}
		}
	}
	return flags
}

// verdictResults reports, for a function whose one result is an error,
// whether that error only gives a verdict: every return hands back nil or
// a failure made on the spot (a sentinel variable, errors.New, fmt.Errorf,
// a new error value), at least one of each. Which of them comes back says what the tests on
// the way found (if _, ok := r.byName[n]; ok { return ErrExists }), as a
// bool result would.
func (fs *funcState) verdictResults() []bool {
	sig := fs.fn.Signature.Results()
	if sig.Len() != 1 || !isError(sig.At(0).Type()) {
		// Beside a value, the error mostly says whether the value was
		// found, and the value carries the read itself.
		return nil
	}
	verdicts := []bool{true}
	nils := make([]bool, len(verdicts))
	fails := make([]bool, len(verdicts))
	for _, b := range fs.fn.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok || b == fs.fn.Recover {
			continue
		}
		for i, v := range ret.Results {
			if i < len(verdicts) && verdicts[i] && !fs.verdictOf(v, &nils[i], &fails[i], 0) {
				verdicts[i] = false
			}
		}
	}
	for i := range verdicts {
		verdicts[i] = verdicts[i] && nils[i] && fails[i]
	}
	return verdicts
}

// missingWhen says which outcome of a helper's error result means that
// the entry its existence test looked for was missing.
type missingWhen uint8

const (
	missingOnNil      missingWhen = iota + 1 // if _, ok := m[k]; ok { return ErrTaken }; return nil
	missingOnFailure                         // if !ok { return nil, ErrNotFound }
	missingOnSentinel                        // the same, beside other failures: only ErrNotFound says so
)

// verdictTest is an existence test of read whose answer fs's function
// gives as its error result.
type verdictTest struct {
	read    int
	missing missingWhen
	// sentinel: for missingOnSentinel, the package variable returned
	// (only) where the entry was missing, as "path.Name".
	sentinel string
}

// verdictTests finds, for a function whose last result is an error, the
// existence tests of shared state that choose between nil and a failure
// made on the spot: every nil return lies on one side of the test and a
// made failure on the other. A failure is read as "missing" only when
// every failure is made where the test found nothing (one passed on from
// elsewhere says nothing about the entry). It returns the error's index
// and the tests.
func (fs *funcState) verdictTests() (int, []verdictTest) {
	sig := fs.fn.Signature.Results()
	ei := sig.Len() - 1
	if ei < 0 || ei > 1 || !isError(sig.At(ei).Type()) || len(fs.reads) == 0 {
		return 0, nil
	}
	var nils, made, passed []*ssa.BasicBlock
	sentinels := make(map[string][]*ssa.BasicBlock) // the returns of each sentinel
	for _, b := range fs.fn.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok || b == fs.fn.Recover || len(ret.Results) <= ei {
			continue
		}
		v := ret.Results[ei]
		if ld, ok := v.(*ssa.UnOp); ok && ld.Op == token.MUL {
			// The result variable a function with defers returns
			// through: what was stored into it on the way.
			if a := fs.localRoot(ld.X); a != nil {
				if vals, ok := fs.reachingOf(ld, a); ok && len(vals) == 1 {
					v = vals[0]
				}
			}
		}
		switch {
		case isNil(v):
			nils = append(nils, b)
		case madeFailure(v):
			made = append(made, b)
			if g := sentinelName(v); g != "" {
				sentinels[g] = append(sentinels[g], b)
			}
		default:
			passed = append(passed, b)
		}
	}
	if len(nils) == 0 || len(made) == 0 {
		return 0, nil
	}
	// What each return depends on, gathered once: a function may have
	// many returns and many tests.
	depsOf := make(map[*ssa.BasicBlock]map[branch]bool)
	dependsOn := func(b *ssa.BasicBlock, br branch) bool {
		ds, ok := depsOf[b]
		if !ok {
			ds = make(map[branch]bool)
			fs.eachDep(b, func(d branch) { ds[d] = true })
			depsOf[b] = ds
		}
		return ds[br]
	}
	all := func(bs []*ssa.BasicBlock, br branch) bool {
		for _, b := range bs {
			if !dependsOn(b, br) {
				return false
			}
		}
		return true
	}
	some := func(bs []*ssa.BasicBlock, br branch) bool {
		return slices.ContainsFunc(bs, func(b *ssa.BasicBlock) bool { return dependsOn(b, br) })
	}
	var out []verdictTest
	fs.eachExistenceTest(false, func(x *ssa.BasicBlock, _, _ ssa.Value, missing int, ri int) {
		onMissing, onFound := branch{x, missing}, branch{x, 1 - missing}
		switch {
		case all(nils, onMissing) && some(made, onFound):
			out = append(out, verdictTest{read: ri, missing: missingOnNil})
		case all(nils, onFound) && all(made, onMissing) && len(passed) == 0:
			out = append(out, verdictTest{read: ri, missing: missingOnFailure})
		case all(nils, onFound) && len(passed) == 0:
			// One failure among others says "missing": the one every
			// return of which lies on the missing side.
			for g, bs := range sentinels {
				if all(bs, onMissing) && !some(bs, onFound) {
					out = append(out, verdictTest{read: ri, missing: missingOnSentinel, sentinel: g})
					break
				}
			}
		}
	})
	return ei, out
}

// sentinelName names the package variable v loads ("path.Name"), or "".
func sentinelName(v ssa.Value) string {
	if mi, ok := v.(*ssa.MakeInterface); ok {
		v = mi.X
	}
	ld, ok := v.(*ssa.UnOp)
	if !ok || ld.Op != token.MUL {
		return ""
	}
	g, ok := ld.X.(*ssa.Global)
	if !ok || g.Pkg == nil {
		return ""
	}
	return g.Pkg.Pkg.Path() + "." + g.Name()
}

// verdictOf reports whether v is nil or a made failure, or a choice
// among them, noting which it found.
func (fs *funcState) verdictOf(v ssa.Value, sawNil, sawFailure *bool, depth int) bool {
	switch {
	case isNil(v):
		*sawNil = true
		return true
	case madeFailure(v):
		*sawFailure = true
		return true
	case depth > 4:
		return false
	}
	var choices []ssa.Value
	switch x := v.(type) {
	case *ssa.Phi:
		choices = x.Edges
	case *ssa.UnOp:
		// A result variable a deferred call may read: what was stored.
		a := fs.localRoot(x.X)
		if x.Op != token.MUL || a == nil {
			return false
		}
		vals, ok := fs.reachingOf(x, a)
		if !ok {
			return false
		}
		choices = vals
	default:
		return false
	}
	for _, e := range choices {
		if !fs.verdictOf(e, sawNil, sawFailure, depth+1) {
			return false
		}
	}
	return true
}

// storesCtl is the control taint of the blocks storing into the local
// variable v loads, when it is such a load.
func (fs *funcState) storesCtl(v ssa.Value) bitset {
	var t bitset
	ld, ok := v.(*ssa.UnOp)
	if !ok || ld.Op != token.MUL {
		return t
	}
	a := fs.localRoot(ld.X)
	if a == nil {
		return t
	}
	for _, r := range *a.Referrers() {
		if st, ok := r.(*ssa.Store); ok && st.Addr == a {
			t.unionWith(fs.blockCtl[st.Block().Index])
		}
	}
	return t
}

// sentinelLoad reports whether instr loads a package variable only
// package initialisation sets (an error sentinel).
func (e *engine) sentinelLoad(instr ssa.Instruction) bool {
	ld, ok := instr.(*ssa.UnOp)
	if !ok || ld.Op != token.MUL {
		return false
	}
	g, ok := ld.X.(*ssa.Global)
	return ok && !e.globalSet[g]
}

// madeFailure reports whether v is an error made where it is returned: a
// package variable's value, or one built by errors.New, fmt.Errorf or a
// composite literal.
func madeFailure(v ssa.Value) bool {
	if mi, ok := v.(*ssa.MakeInterface); ok {
		v = mi.X
	}
	switch x := v.(type) {
	case *ssa.UnOp:
		_, ok := x.X.(*ssa.Global)
		return ok && x.Op == token.MUL
	case *ssa.Alloc:
		return true
	case *ssa.Call:
		f := x.Call.StaticCallee()
		if f == nil || f.Pkg == nil {
			return false
		}
		switch f.Pkg.Pkg.Path() + "." + f.Name() {
		case "errors.New", "fmt.Errorf":
			return true
		}
	}
	return false
}

// foundConst reports whether v, returned at the end of block b, is a
// constant that says what found tests decided on the way to b (if _, ok
// := m[k]; ok { return true }; return false): every read b's control
// depends on is a lookup's found result.
func (fs *funcState) foundConst(v ssa.Value, b *ssa.BasicBlock) bool {
	if !boolConst(fs.assigned(v)) {
		return false
	}
	found, any := true, false
	fs.blockCtl[b.Index].each(func(ri int) {
		any = true
		r := &fs.reads[ri]
		switch x := r.instr.(type) {
		case *ssa.Lookup:
			if x.CommaOk {
				return
			}
		case *ssa.UnOp:
			// The map the lookup looked in, loaded from its field.
			if slices.ContainsFunc(*x.Referrers(), func(ref ssa.Instruction) bool {
				l, ok := ref.(*ssa.Lookup)
				return ok && l.CommaOk && l.X == x
			}) {
				return
			}
		case ssa.CallInstruction:
			if r.found {
				return
			}
		}
		found = false
	})
	return found && any
}

// foundValue reports whether v is the found result of a read of shared
// state: the ok of a comma-ok lookup read here, or the result of a helper
// call whose read says only that.
func (fs *funcState) foundValue(v ssa.Value) bool {
	switch x := fs.assigned(v).(type) {
	case *ssa.Extract:
		l, ok := x.Tuple.(*ssa.Lookup)
		if !ok || !l.CommaOk || x.Index != 1 {
			return false
		}
		_, read := fs.readIdx[l]
		return read
	case *ssa.Call:
		ri, read := fs.readIdx[x]
		return read && fs.reads[ri].found
	case *ssa.BinOp:
		// return len(c.pending) > 0: the test a caller would have
		// written inline, and it counts as that test. Only where true
		// means there, as a found result does (len(c.buff) == 0 says the
		// opposite); and not a nil test: return c.conn != nil says
		// whether the object is set up, not whether an entry is there.
		subject, missing, ok := existenceTest(x)
		if !ok || missing != 1 || !testsLen(x) {
			return false
		}
		instr, ok := subject.(ssa.Instruction)
		if !ok {
			return false
		}
		_, read := fs.readIdx[instr]
		return read
	}
	return false
}

// asParam returns v as a parameter, or nil.
// boxed returns the value v puts in an interface (a sync.Map's key), or v.
func boxed(v ssa.Value) ssa.Value {
	if mi, ok := v.(*ssa.MakeInterface); ok {
		return mi.X
	}
	return v
}

func asParam(v ssa.Value) *ssa.Parameter {
	p, _ := v.(*ssa.Parameter)
	return p
}

// summarizeEnsures records the get-or-creates of fs's function: a store
// m[k] = v, k a parameter, under a write lock of the function's own, on
// the missing side of a test, in the same section, of the lookup m[k]
// that every return of the function passes; where nothing in the
// function deletes from m. Whichever way the test went, the entry was
// there when the section ended: a caller's earlier finding about it is
// no longer what its later sections act on.
func (fs *funcState) summarizeEnsures(s *summary, wb map[*ssa.BasicBlock][]int, ownLock func(lockState, bool) *relLock) {
	fn := fs.fn
	var returns []*ssa.BasicBlock
	for _, b := range fn.Blocks {
		if _, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok && b != fn.Recover {
			returns = append(returns, b)
		}
	}
	if len(returns) == 0 {
		return
	}
	for i := range fs.writes {
		w := &fs.writes[i]
		up, ok := w.instr.(*ssa.MapUpdate)
		if !ok || w.kind != writeMapUpdate || len(w.held) == 0 {
			continue
		}
		key := paramIndex(fn, asParam(up.Key))
		l := ownLock(w.held, false)
		if key < 0 || l == nil || l.mode != Write {
			continue
		}
		var h heldLock
		for _, x := range w.held {
			if rp, ok := toRel(fn, x.path); ok && rp == l.path && x.mode == Write {
				h = x
			}
		}
		loc, ok := toRel(fn, w.loc)
		if h.key == (pathKey{}) || !ok || slices.ContainsFunc(fs.writes, func(d writeSite) bool {
			return d.removal && d.loc.overlaps(w.loc)
		}) {
			continue
		}
		same := func(p Path) bool { return p.key() == w.loc.key() }
		for _, g := range fs.inlineGuards(w, h.key, same, wb, w.loc) {
			if !g.existence || !g.writeOnMissing || g.read < 0 {
				continue
			}
			lk, ok := fs.reads[g.read].instr.(*ssa.Lookup)
			if !ok || lk.Index != up.Key || slices.ContainsFunc(returns, func(b *ssa.BasicBlock) bool { return !lk.Block().Dominates(b) }) {
				continue
			}
			// The missing side stores on every way to a return (an early
			// return there, on a failed validation say, creates nothing).
			if !storesOnEveryWay(g.branch.block.Succs[g.branch.succ], w.instr, returns) {
				continue
			}
			if en := (relEnsure{loc: loc, key: 1 + key, lock: *l}); !slices.Contains(s.ensures, en) {
				s.ensures = append(s.ensures, en)
			}
		}
	}
}

// storesOnEveryWay reports whether every way from the start of block b
// to one of the returns passes the store st.
func storesOnEveryWay(b *ssa.BasicBlock, st ssa.Instruction, returns []*ssa.BasicBlock) bool {
	if b.Instrs[0] == st {
		return true
	}
	for _, r := range returns {
		ret := r.Instrs[len(r.Instrs)-1]
		if ret == b.Instrs[0] || reachableAvoiding(b.Instrs[0], ret, []ssa.Instruction{st}) {
			return false
		}
	}
	return true
}

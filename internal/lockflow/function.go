package lockflow

import (
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// readSite is a read of shared state: a load, a map lookup, a map range
// step, or the result of a helper that reads under its own lock.
type readSite struct {
	instr ssa.Instruction
	value ssa.Value
	loc   Path
	held  lockState
	pos   token.Pos
	also  []Path // for a helper call: the other locations it read
	// results: for a call of a helper with several results, which of
	// them carry what it read (bit i for result i); 0 for all.
	results uint32
	// recheckOnly: a call of a plain helper that takes no lock and does
	// not say it expects one held (c.get(k) in go-cache), made under the
	// caller's lock. What it read is read in the caller's section, and a
	// test of it there re-checks what an earlier section decided; but a
	// getter called under the lock here and with no lock elsewhere may
	// read what needs none, so the call is never itself the stale read
	// of a gap, nor a read the caller's own summary hands on.
	recheckOnly bool
	// picked: a helper's result holds only what a test of guarded state
	// let through (see relRead.picked).
	picked bool
	// orderOnly: a helper's result depends on what it read only in the
	// order of its elements (see relRead.orderOnly).
	orderOnly bool
	// found: a helper's bool result says only whether what it read is
	// there (see relRead.found).
	found bool
	// bound: a helper's bool result compares what it read with a bound
	// (see relRead.bound).
	bound bool
	// missing: a helper's error result says whether what it read is
	// there, and which outcome means missing (see relRead.missing).
	missing  missingWhen
	sentinel string
	// key: the key of the map entry read (a lookup's index, or the
	// caller's argument a helper looked its entry up by); nil if unknown.
	key ssa.Value
	// keyFrom, keyMarks: for a helper's read, where its key comes from,
	// where keyKnown (see otherEntry).
	keyFrom  []ssa.Value
	keyMarks []string
	keyKnown bool
}

// ensureSite is a call of a helper that, in one section of lock, looked
// the entry at loc up by key and created it where it was missing (see
// relEnsure).
type ensureSite struct {
	instr ssa.Instruction
	loc   Path
	key   ssa.Value
	lock  pathKey
}

type writeKind uint8

const (
	writeStore writeKind = iota + 1
	writeMapUpdate
	writeDelete
	writeClear
	writeCall // a helper that writes
)

// writeSite is a write of shared state, or a call of a helper that writes.
type writeSite struct {
	instr  ssa.Instruction
	loc    Path
	held   lockState
	kind   writeKind
	stored ssa.Value   // the value stored, if any
	data   []ssa.Value // values whose taint is what is written
	base   ssa.Value   // the value the written location is reached from
	inner  writeKind   // for writeCall: what the helper does
	// collection: the write adds to or removes from a map or slice (a
	// map update, delete, clear, or a store of an append), as opposed to
	// setting a field.
	collection bool
	// removal: the write deletes, clears, or stores nil.
	removal bool
	// inputFields: for a call, the fields of this function's own struct
	// parameters, as it was handed them, that flow into the write.
	inputFields []paramField
	// typeReqs: for a call, the type conditions of the callee's write on
	// this function's own parameters (see typecases.go).
	typeReqs []typeReq
	// empties: the write stores a new empty map (c.items = map[K]V{}):
	// it takes every entry out. (Not a removal: what it takes out is
	// any entry, not the one a stale read saw.)
	empties bool
	// takes: the write stores the slice it reads from, cut (s.q = s.q[1:]):
	// it takes elements out.
	takes bool
	// swaps: the write replaces, in its section, a value read from the
	// same location earlier in that section and handed out, with one not
	// derived from it (a batch swapped for an empty map): whoever got the
	// old value owns it.
	swaps bool
	// merges: the write keeps the larger (or smaller) of what the
	// location holds, read again in the same expression, and the new
	// value (x = max(x, v)): nothing stored there in between is lost.
	merges bool
	guards []guard // re-checks inside a called helper
	// key: the map entry written is under this constant key (see
	// constKey); "" when the key is not a constant.
	key string
	// resolved: what a called helper reads in an earlier section of its
	// own to decide the write.
	resolved []Path
	pos      token.Pos
	// For a helper's write: the one value every call of the helper stores
	// there (a constant), as fixedKey names it, or "" ; and the argument
	// it stores as it is, if any.
	fixed     string
	storedArg ssa.Value
	// The key of the map entry written, where known (keyKnown): the
	// values it comes from here, and the functions and package variables
	// a helper computed it with (see otherEntry).
	keyFrom  []ssa.Value
	keyMarks []string
	keyKnown bool
}

// guard is a re-read that controls a write: either a branch in the
// function being analysed or one summarised inside a helper.
type guard struct {
	loc            Path
	read           int // index of the read site in this function, or -1 inside a helper
	existence      bool
	writeOnMissing bool
	missingCreates bool
	// missingFails: on the missing side the function gives up with an
	// error its caller gets (see failsAloud); at a call, one the caller
	// does not drop.
	missingFails bool
	branch       branch // for guards in this function
	// against: the value the re-read is compared with, when it is a
	// version or generation a parameter carries (see versionGuards): in
	// the helper that parameter, at a call the caller's argument.
	against ssa.Value
}

// funcState is everything the engine derives about one function.
type funcState struct {
	fn      *ssa.Function
	e       *engine
	flow    *lockFlow
	reads   []readSite
	writes  []writeSite
	readIdx map[ssa.Instruction]int
	cd      *controlDeps

	taint    map[ssa.Value]bitset
	blockCtl []bitset
	// atomicLoads: the function's calls loading atomics (loadsAtomicIn),
	// listed on first use.
	atomicLoads []ssa.Instruction
	// through: the reads a value derives from only through a pointer it
	// was loaded from, where taint stops (a field of a snapshot read with
	// no lock held, or one never changed after it was built). It matters
	// only where the write stores back to where that pointer came from:
	// a copy-on-write update of a stale snapshot.
	through  map[ssa.Value]bitset
	releases map[int][]ssa.Instruction // acquire index -> the releases closing it

	inputLabel map[ssa.Value]int // parameters and free variables -> their pseudo read site
	// fieldLabel: the fields of parameters passed by value (a struct of
	// options) that the function selects one by one, each with a pseudo
	// read site of its own, so a summary can say that only that field of
	// the argument flows into a write; inputField names each such label.
	fieldLabel map[ssa.Value]int
	inputField map[int]paramField
	// outs: the local variables a closure called in place stores what it
	// read into (the call is their read site too).
	outs     map[ssa.Instruction][]*ssa.Alloc
	reaching map[*ssa.UnOp][]ssa.Value
	mayReach map[*ssa.UnOp][]ssa.Value // mayReachOf, memoised
	refilled map[*ssa.UnOp][]ssa.Value // refilledCopy, memoised (nil: not refilled)

	dropsCallerLock map[pathKey]bool // locks released here without being taken here

	// Indexes for the gap search (see index).
	readsIn, writesIn map[int][]int
	readsByLoc        map[locInSection][]int // every read by location and section (swapsOut)
	decisionsOf       map[int][]staleDecision
	direct            map[ssa.Value][]int // directReads, memoised
	readsAt           map[pathKey][]int   // reads under nested locks by location, for superseded
	ensured           []ensureSite        // helper calls that get or create an entry
	lockedFunc        bool                // the function takes locks itself
	pickedReads       *bitset             // see picked; computed on first use
	reachMemo         map[[2]*ssa.BasicBlock]bool
	versionTests      *[]versionTest // see versionTestsOf
	scc               []int          // see components
	retry             *retryTests    // see eachRetryTest
	reentries         []Reentry      // helper calls taking a lock held here
	// paramHeld: for each parameter the function calls (an iterator's
	// yield, a callback), the locks held at every call of it.
	paramHeld    map[int]lockState
	unlockHelper *bool // see releasesElsewhere
}

// analyzeFunction runs the held-lock flow, collects read and write sites
// and computes taint. It returns nil for functions that neither lock nor
// read or write shared state.
func (e *engine) analyzeFunction(fn *ssa.Function) *funcState {
	if len(fn.Blocks) == 0 {
		return nil
	}
	fs := &funcState{fn: fn, e: e, readIdx: make(map[ssa.Instruction]int), releases: make(map[int][]ssa.Instruction),
		dropsCallerLock: make(map[pathKey]bool)}
	ops := make(map[ssa.Instruction]lockOp)
	var acqs []acquire
	type helperCall struct {
		cs  *callSite
		sum *summary
	}
	helpers := make(map[ssa.Instruction]helperCall)
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if op, ok := e.claimOp(instr); ok {
				ops[instr] = op
				if op.kind == opAcquire {
					acqs = append(acqs, acquire{instr: instr, path: op.path, mode: op.mode, claim: true})
				}
			}
			if op, ok := e.semaphoreOp(instr); ok {
				ops[instr] = op
				if op.kind == opAcquire {
					acqs = append(acqs, acquire{instr: instr, path: op.path, mode: op.mode, claim: true})
				}
			}
			call, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			if op, ok := syncLockOp(call.Common()); ok {
				ops[instr] = op
				if op.kind == opAcquire {
					acqs = append(acqs, acquire{instr: instr, path: op.path, mode: op.mode})
				}
				continue
			}
			// Only callees that take locks shape this function's sections;
			// the others matter only where a lock is held at the call,
			// and are summarised below, once the held locks are known.
			if !e.locksTransitively(fn, call) {
				continue
			}
			cs, sum := e.helperSummary(fn, call)
			if sum.empty() {
				continue
			}
			helpers[instr] = helperCall{cs, sum}
		}
	}
	// Helper sections get acquire indices after the direct ones.
	helperAcq := make(map[ssa.Instruction]map[pathKey]int)
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			h, ok := helpers[instr]
			if !ok {
				continue
			}
			for _, l := range h.sum.acquires {
				p, ok := h.cs.resolveLock(l.path)
				if !ok {
					continue
				}
				if helperAcq[instr] == nil {
					helperAcq[instr] = make(map[pathKey]int)
				}
				helperAcq[instr][p.key()] = len(acqs)
				acqs = append(acqs, acquire{instr: instr, path: p, mode: l.mode, helper: true, rel: l.path})
			}
		}
	}
	var enter map[*ssa.BasicBlock]int
	for b, op := range e.semaphoreEntries(fn) {
		if enter == nil {
			enter = make(map[*ssa.BasicBlock]int)
		}
		enter[b] = len(acqs)
		acqs = append(acqs, acquire{instr: b.Preds[0].Instrs[len(b.Preds[0].Instrs)-1], path: op.path, mode: op.mode, claim: true})
	}
	fs.flow = computeHeld(fn, ops, acqs, enter)
	fs.lockedFunc = len(acqs) > 0
	// A helper's own section holds its lock on top of whatever the caller
	// holds at the call.
	ownSection := func(instr ssa.Instruction, cs *callSite, l relLock, outer lockState) (lockState, bool) {
		p, ok := cs.resolveLock(l.path)
		if !ok {
			return nil, false
		}
		idx, ok := helperAcq[instr][p.key()]
		if !ok {
			return nil, false
		}
		if h, reentered := outer.lookup(p.key()); reentered && !fs.releasesElsewhere() {
			// The helper takes a lock the caller already holds (a
			// deadlock, or a recursive RLock): no new section begins,
			// what it reads and writes is in the caller's. Its lock
			// goes last, as for a section of its own. (Not where the
			// caller may have released it in a way the held-lock
			// state does not see: mu.Unlock handed to a sync.Once.)
			return outer.with(h), true
		}
		return outer.with(heldLock{key: p.key(), path: p, mode: l.mode, openers: []int{idx}}), true
	}

	for _, b := range fn.Blocks {
		s, reachable := fs.flow.entry[b]
		if !reachable && b != fn.Blocks[0] {
			continue
		}
		for _, instr := range b.Instrs {
			switch x := instr.(type) {
			case *ssa.UnOp:
				if x.Op == token.MUL {
					if loc := pathOf(x.X); loc.isShared(fn) && !fs.e.fixedCell(x.X) {
						fs.addRead(instr, x, loc, s)
					}
				}
			case *ssa.Lookup:
				if loc := pathOf(x); loc.isShared(fn) {
					fs.addRead(instr, x, loc, s)
					if _, isMap := x.X.Type().Underlying().(*types.Map); isMap {
						fs.reads[fs.readIdx[instr]].key = x.Index
					}
				}
			case *ssa.Next:
				if r, ok := x.Iter.(*ssa.Range); ok && !x.IsString {
					if loc := pathOf(r.X); loc.isShared(fn) {
						loc.Steps += "[];"
						fs.addRead(instr, x, loc, s)
					}
				}
			case *ssa.Store:
				if loc := pathOf(x.Addr); loc.isShared(fn) {
					fs.writes = append(fs.writes, writeSite{instr: instr, loc: loc, held: s, kind: writeStore,
						stored: x.Val, data: []ssa.Value{x.Val}, base: x.Addr, pos: x.Pos(), collection: isAppend(x.Val), removal: isNil(x.Val),
						empties: newEmptyMap(x.Val), takes: cutsItself(x), merges: mergesItself(x)})
				}
			case *ssa.MapUpdate:
				loc := pathOf(x.Map)
				if loc.isShared(fn) {
					loc.Steps += "[];"
					fs.writes = append(fs.writes, writeSite{instr: instr, loc: loc, held: s, kind: writeMapUpdate,
						stored: x.Value, data: []ssa.Value{x.Value}, base: x.Map, pos: x.Pos(), collection: true, key: constKey(x.Key),
						keyFrom: []ssa.Value{x.Key}, keyKnown: true, merges: mergesItself(x)})
				}
			case *ssa.Call:
				if op, ok := fs.flow.ops[instr]; ok && op.kind == opRelease {
					if h, ok := s.lookup(op.path.key()); ok {
						for _, o := range h.openers {
							fs.releases[o] = append(fs.releases[o], instr)
						}
					} else {
						// Releasing a lock this function did not take: the
						// caller holds it, and this function drops it for a
						// while (to wait, say).
						fs.dropsCallerLock[op.path.key()] = true
					}
				}
				if bi, ok := x.Call.Value.(*ssa.Builtin); ok && len(x.Call.Args) > 0 {
					kind := writeKind(0)
					switch bi.Name() {
					case "delete":
						kind = writeDelete
					case "clear":
						kind = writeClear
					}
					if kind != 0 {
						if loc := pathOf(x.Call.Args[0]); loc.isShared(fn) {
							loc.Steps += "[];"
							fs.writes = append(fs.writes, writeSite{instr: instr, loc: loc, held: s, kind: kind,
								base: x.Call.Args[0], pos: x.Pos(), collection: true, removal: true, key: deleteKey(x)})
							if kind == writeDelete && len(x.Call.Args) == 2 {
								w := &fs.writes[len(fs.writes)-1]
								w.keyFrom, w.keyKnown = []ssa.Value{x.Call.Args[1]}, true
							}
						}
					}
				}
				if slices.ContainsFunc(s, func(h heldLock) bool { return h.mode == Write }) {
					e.lockedCalls[instr] = true
				}
				if i, ok := calledParam(fn, x); ok {
					fs.noteParamCall(i, s)
				}
				fs.noteIteratorReentry(x)
				fs.noteCallbackReentry(x)
				h, ok := helpers[instr]
				if ok {
					fs.noteReentry(x, h.cs, s)
				}
				if !ok && len(s) > 0 {
					// A helper called with a lock held writes under it.
					if cs, sum := e.helperSummary(fn, x); !sum.empty() {
						h, ok = helperCall{cs, sum}, true
					}
				}
				if !ok {
					break
				}
				if isSyncMapCall(instr) && !pathOf(x.Call.Args[0]).isShared(fn) {
					// A map of a local object, as for a plain map.
					break
				}
				// One read site per call stands for all the callee's
				// reads; it is named by the most specific location (the
				// map entry rather than the map).
				var best Path
				var bestHeld lockState
				var bestPos token.Pos // a closure's own read, when it is the best
				bestRecheckOnly := false
				outs := h.sum.outs
				if !inPlace(fn, x) {
					outs = nil
				}
				for _, r := range slices.Concat(h.sum.results, outs) {
					loc, ok1 := h.cs.resolve(r.loc)
					held, ok2 := s, len(s) > 0 // read in the section around the call
					if !r.callerLock {
						held, ok2 = ownSection(instr, h.cs, r.lock, s)
					}
					if ok1 && ok2 && (best.Root == nil || len(loc.Steps) > len(best.Steps)) {
						best, bestHeld, bestPos, bestRecheckOnly = loc, held, r.pos, r.recheckOnly
					}
				}
				for _, r := range outs {
					if r.free < len(h.cs.bindings) {
						if a := fs.localRoot(h.cs.bindings[r.free]); a != nil && !slices.Contains(fs.outs[instr], a) {
							if fs.outs == nil {
								fs.outs = make(map[ssa.Instruction][]*ssa.Alloc)
							}
							fs.outs[instr] = append(fs.outs[instr], a)
						}
					}
				}
				if best.Root != nil {
					fs.addRead(instr, x, best, bestHeld)
					// The call stands for every location the helper
					// read; a re-check of any of them re-checks it.
					if ri, ok := fs.readIdx[instr]; ok {
						if bestPos.IsValid() {
							fs.reads[ri].pos = bestPos
						}
						fs.reads[ri].recheckOnly = bestRecheckOnly
						fs.reads[ri].results = resultsCarrying(h.sum.results)
						fs.reads[ri].key = h.cs.entryKey(h.sum.results, best)
						fs.reads[ri].keyFrom, fs.reads[ri].keyMarks, fs.reads[ri].keyKnown = h.cs.entryOrigin(h.sum.results, best)
						fs.reads[ri].orderOnly = len(h.sum.results) > 0
						// One bool result, answered by what was read: it may
						// say whether it is there, or within a bound.
						answer := len(h.sum.results) > 0 && len(h.sum.outs) == 0 && foundResult(x.Call.Signature())
						fs.reads[ri].found, fs.reads[ri].bound = answer, answer
						for _, r := range h.sum.results {
							fs.reads[ri].orderOnly = fs.reads[ri].orderOnly && r.orderOnly
							fs.reads[ri].found = fs.reads[ri].found && r.found
							fs.reads[ri].bound = fs.reads[ri].bound && r.bound
							fs.reads[ri].picked = fs.reads[ri].picked || r.picked
							if r.missing != 0 && (fs.reads[ri].missing == 0 || fs.reads[ri].missing == r.missing) {
								fs.reads[ri].missing, fs.reads[ri].sentinel = r.missing, r.sentinel
							}
							if loc, ok := h.cs.resolve(r.loc); ok && loc.key() != best.key() {
								fs.reads[ri].also = append(fs.reads[ri].also, loc)
							}
						}
					}
				}
				for _, en := range h.sum.ensures {
					loc, ok1 := h.cs.resolve(en.loc)
					held, ok2 := ownSection(instr, h.cs, en.lock, s)
					key := h.cs.rootValue(relPath{param: en.key - 1})
					if ok1 && ok2 && key != nil && en.lock.mode == Write {
						// ownSection puts the helper's own lock last.
						fs.ensured = append(fs.ensured, ensureSite{instr: instr, loc: loc, key: key, lock: held[len(held)-1].key})
					}
				}
				for _, w := range h.sum.writes {
					loc, ok := h.cs.resolve(w.loc)
					if !ok {
						continue
					}
					held := s
					if w.lock != nil {
						if held, ok = ownSection(instr, h.cs, *w.lock, s); !ok {
							continue
						}
					}
					reqs, never := bindTypeReqs(fn, h.cs, w.typeReqs)
					if never {
						continue // made only for events of other types than this call hands it
					}
					ws := writeSite{typeReqs: reqs, instr: instr, loc: loc, held: held, kind: writeCall, inner: w.kind,
						base: h.cs.rootValue(w.loc), pos: x.Pos(), collection: w.collection, removal: w.removal, empties: w.empties, takes: w.takes, swaps: w.swaps, key: w.key,
						fixed: w.fixed, merges: w.merges}
					if w.keyKnown {
						ws.keyKnown, ws.keyMarks = true, withoutFieldMarks(w.keyMarks)
						for _, p := range w.keyFrom {
							v := h.cs.rootValue(relPath{param: p})
							if v == nil || p < 0 && !inPlace(fn, x) {
								ws.keyKnown = false
								break
							}
							if f, ok := keyField(w.keyMarks, p); ok && fieldDrawn(v, f) {
								// A new object with a fresh id where the key is
								// read: an entry no one else can have stored.
								ws.keyMarks = append(ws.keyMarks, freshKeyMark(x))
								continue
							}
							ws.keyFrom = append(ws.keyFrom, v)
						}
					}
					if w.storedParam > 0 {
						ws.storedArg = h.cs.rootValue(relPath{param: w.storedParam - 1})
						if ws.fixed == "" {
							ws.fixed = fs.fixedKey(ws.storedArg)
						}
					}
					for _, p := range w.dataFrom {
						if p < 0 && !inPlace(fn, x) {
							continue // what a closure kept for later reads of a variable depends on when it runs
						}
						if v := h.cs.rootValue(relPath{param: p}); v != nil {
							ws.data = append(ws.data, v)
						}
					}
					for _, pf := range w.dataFields {
						if v := h.cs.rootValue(relPath{param: pf.Param}); v != nil {
							if q, ok := spilledParamField(fn, v, pf.Field); ok {
								ws.inputFields = append(ws.inputFields, q)
							} else {
								ws.data = append(ws.data, fieldValues(v, pf.Field)...)
							}
						}
					}
					for _, g := range w.guards {
						gl, ok := h.cs.resolve(g.loc)
						if !ok {
							continue
						}
						var against ssa.Value
						if g.against > 0 {
							if against = h.cs.rootValue(relPath{param: g.against - 1}); against == nil {
								continue
							}
						}
						ws.guards = append(ws.guards, guard{loc: gl, read: -1, existence: g.existence,
							writeOnMissing: g.writeOnMissing, missingCreates: g.missingCreates, against: against,
							missingFails: g.missingFails && errorKept(x)})
					}
					for _, p := range w.resolved {
						if rl, ok := h.cs.resolve(p); ok {
							ws.resolved = append(ws.resolved, rl)
						}
					}
					if inPlace(fn, x) {
						// A closure called right here is a block of this
						// function: judged as the write it makes.
						ws.kind = w.kind
					}
					if isSyncMapCall(instr) {
						// Judged as the map write it is, not as a helper.
						ws.kind = w.kind
						if len(w.dataFrom) > 0 && w.dataFrom[0] >= 0 && w.dataFrom[0] < len(x.Call.Args) {
							ws.stored = x.Call.Args[w.dataFrom[0]]
							if mi, ok := ws.stored.(*ssa.MakeInterface); ok {
								ws.stored = mi.X
							}
						}
					}
					fs.writes = append(fs.writes, ws)
				}
			}
			s = fs.flow.step(s, instr)
		}
	}
	if len(fs.reads) == 0 && len(fs.writes) == 0 && len(acqs) == 0 {
		return nil
	}
	// Inputs get labels too, so a summary can say which of them flow
	// into what the function writes.
	fs.inputLabel = make(map[ssa.Value]int)
	for _, p := range fn.Params {
		fs.inputLabel[p] = len(fs.reads)
		fs.reads = append(fs.reads, readSite{value: p})
	}
	for _, v := range fn.FreeVars {
		fs.inputLabel[v] = len(fs.reads)
		fs.reads = append(fs.reads, readSite{value: v})
	}
	fs.labelParamFields()
	fs.cd = computeControlDeps(fn)
	fs.computeTaint()
	return fs
}

// paramField is field Field of parameter Param (a struct passed by
// value).
type paramField struct{ Param, Field int }

// labelParamFields gives each field selected from a struct parameter a
// pseudo read site of its own (see fieldLabel): selected from the
// parameter itself, or loaded from the local variable go/ssa spills it
// to when that variable is only stored the parameter, once, and has
// fields loaded.
func (fs *funcState) labelParamFields() {
	for i, p := range fs.fn.Params {
		if _, ok := p.Type().Underlying().(*types.Struct); !ok || p.Referrers() == nil {
			continue
		}
		byField := map[int]int{}
		label := func(v ssa.Value, field int) {
			l, seen := byField[field]
			if !seen {
				l = len(fs.reads)
				byField[field] = l
				fs.reads = append(fs.reads, readSite{value: v})
				if fs.fieldLabel == nil {
					fs.fieldLabel, fs.inputField = make(map[ssa.Value]int), make(map[int]paramField)
				}
				fs.inputField[l] = paramField{Param: i, Field: field}
			}
			fs.fieldLabel[v] = l
		}
		for _, ref := range *p.Referrers() {
			switch x := ref.(type) {
			case *ssa.Field:
				if x.X == p {
					label(x, x.Field)
				}
			case *ssa.Store:
				a, ok := x.Addr.(*ssa.Alloc)
				if !ok || x.Val != p {
					continue
				}
				spilled := map[int]bool{} // by field, asked once each
				for _, ref := range *a.Referrers() {
					fa, ok := ref.(*ssa.FieldAddr)
					if !ok {
						continue
					}
					only, asked := spilled[fa.Field]
					if !asked {
						only = onlySpilled(a, fa.Field, x)
						spilled[fa.Field] = only
					}
					if !only {
						continue
					}
					for _, r := range *fa.Referrers() {
						if load, ok := r.(*ssa.UnOp); ok && load.Op == token.MUL {
							label(load, fa.Field)
						}
					}
				}
			}
		}
	}
}

// onlySpilled reports whether field f of the local variable a holds only
// what the store spill put in the whole of it: a parameter go/ssa
// spilled there, whose field f the function neither stores to nor hands
// the address of.
func onlySpilled(a *ssa.Alloc, f int, spill *ssa.Store) bool {
	defs, _, ok := fieldDefs(a, f)
	return ok && len(defs) == 1 && defs[0].instr == spill
}

// newEmptyMap reports whether v is a map made here and stored with
// nothing put in it.
func newEmptyMap(v ssa.Value) bool {
	m, ok := v.(*ssa.MakeMap)
	if !ok {
		return false
	}
	for _, ref := range *m.Referrers() {
		switch x := ref.(type) {
		case *ssa.Store:
			if x.Val != m {
				return false
			}
		case *ssa.DebugRef:
		default:
			return false
		}
	}
	return true
}

// spilledParamField reports whether v, an argument of a call in fn, is
// fn's own struct parameter as it was handed in, loaded from the local
// variable go/ssa spilled it to, with field f never changed: that field
// of the argument is that field of the parameter.
func spilledParamField(fn *ssa.Function, v ssa.Value, f int) (paramField, bool) {
	load, ok := v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return paramField{}, false
	}
	a, ok := load.X.(*ssa.Alloc)
	if !ok || a.Parent() != fn {
		return paramField{}, false
	}
	defs, _, ok := fieldDefs(a, f)
	if !ok || len(defs) != 1 {
		return paramField{}, false
	}
	st, ok := defs[0].instr.(*ssa.Store)
	if !ok || st.Addr != a {
		return paramField{}, false
	}
	p, ok := st.Val.(*ssa.Parameter)
	if !ok || p.Parent() != fn {
		return paramField{}, false
	}
	return paramField{Param: paramIndex(fn, p), Field: f}, true
}

// fieldValues returns what field f of the struct value v can hold: the
// values stored into that field of the local variable v is loaded from,
// when the variable is only filled field by field and loaded whole (a
// struct literal of options); v itself otherwise.
func fieldValues(v ssa.Value, f int) []ssa.Value {
	whole := []ssa.Value{v}
	load, ok := v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return whole
	}
	a, ok := load.X.(*ssa.Alloc)
	if !ok {
		return whole
	}
	defs, _, ok := fieldDefs(a, f)
	if !ok {
		return whole
	}
	var out []ssa.Value
	for _, d := range defs {
		if st, ok := d.instr.(*ssa.Store); !ok || st.Addr == a {
			return whole // stored whole, or assigned by a closure
		}
		out = append(out, d.val)
	}
	return out
}

func (fs *funcState) addRead(instr ssa.Instruction, v ssa.Value, loc Path, held lockState) {
	if _, dup := fs.readIdx[instr]; dup {
		return
	}
	fs.readIdx[instr] = len(fs.reads)
	fs.reads = append(fs.reads, readSite{instr: instr, value: v, loc: loc, held: held, pos: instr.Pos()})
}

// constKey renders a map key that is a constant; "" for any other.
// Entries under two different constant keys are different entries.
func constKey(v ssa.Value) string {
	if c, ok := v.(*ssa.Const); ok && c.Value != nil {
		return c.Value.ExactString()
	}
	return ""
}

// deleteKey is constKey of the key a delete call removes.
func deleteKey(call *ssa.Call) string {
	if b, ok := call.Call.Value.(*ssa.Builtin); ok && b.Name() == "delete" && len(call.Call.Args) == 2 {
		return constKey(call.Call.Args[1])
	}
	return ""
}

// distinctEntries reports whether read r and write w are of entries of
// one map under two different constant keys: m["a"] and m["b"] are told
// apart as two fields are. A read of the map itself that serves only
// lookups under other constant keys reads only those entries.
func distinctEntries(r *readSite, w *writeSite) bool {
	if w.key == "" {
		return false
	}
	other := func(lk *ssa.Lookup) bool {
		k := constKey(lk.Index)
		return k != "" && k != w.key
	}
	switch x := r.instr.(type) {
	case *ssa.Lookup:
		return r.loc.key() == w.loc.key() && other(x)
	case *ssa.UnOp:
		if rest, ok := strings.CutPrefix(w.loc.Steps, r.loc.Steps); r.loc.Root != w.loc.Root || !ok ||
			rest != "[];" && rest != "*;[];" || x.Referrers() == nil {
			return false
		}
		for _, ref := range *x.Referrers() {
			lk, ok := ref.(*ssa.Lookup)
			if !ok || lk.X != x || !other(lk) {
				return false
			}
		}
		return len(*x.Referrers()) > 0
	}
	return false
}

// isLocalAddr reports whether v addresses a local allocation of fs.fn;
// returns that allocation.
func (fs *funcState) localRoot(v ssa.Value) *ssa.Alloc {
	p := pathOf(v)
	if a, ok := p.Root.(*ssa.Alloc); ok && a.Parent() == fs.fn {
		return a
	}
	return nil
}

// computeTaint labels every value with the read sites it derives from, by
// data dependence (operands, stores to and loads from local variables) and
// by control dependence (a phi whose incoming edge was chosen by a tainted
// branch). Block control taint is the union of the taints of the branch
// conditions the block is control dependent on, transitively. The rounds
// stop at a fixed point; each round is linear in the function size.
func (fs *funcState) computeTaint() {
	fn := fs.fn
	fs.taint = make(map[ssa.Value]bitset)
	fs.through = make(map[ssa.Value]bitset)
	fs.blockCtl = make([]bitset, len(fn.Blocks))
	if len(fs.reads) == 0 {
		return
	}
	for v, l := range fs.inputLabel {
		var t bitset
		t.add(l)
		fs.taint[v] = t
	}
	grow := func(v ssa.Value, t bitset) bool { return growLabels(fs.taint, v, t) }
	growThrough := func(v ssa.Value, t bitset) bool { return growLabels(fs.through, v, t) }
	var ops []*ssa.Value
	for round := 0; round < 10; round++ {
		changed := false
		for _, b := range fn.Blocks {
			var ctl bitset
			for _, d := range fs.cd.ctl[b.Index] {
				ctl.unionWith(fs.taint[ifCond(d.br.block)])
				if d.through {
					ctl.unionWith(fs.blockCtl[d.br.block.Index])
				}
			}
			if fs.blockCtl[b.Index].unionWith(ctl) {
				changed = true
			}
			for _, instr := range b.Instrs {
				var t bitset
				switch x := instr.(type) {
				case *ssa.Phi:
					for _, e := range x.Edges {
						t.unionWith(fs.taint[e])
					}
					t.unionWith(fs.phiGate(x))
				case *ssa.UnOp:
					if l, ok := fs.fieldLabel[x]; ok {
						t.add(l) // that field of the argument, not the rest of it
					} else if x.Op == token.MUL {
						reached := false
						if a := fs.localRoot(x.X); a != nil {
							var vals []ssa.Value
							if vals, reached = fs.refilledCopy(x, a); reached {
								for _, v := range vals {
									t.unionWith(fs.taint[v])
								}
							} else if vals, reached = fs.reachingOf(x, a); reached {
								for _, v := range vals {
									t.unionWith(fs.taint[v])
								}
							} else if vals, reached = fs.mayReachOf(x, a); reached {
								for _, v := range vals {
									t.unionWith(fs.taint[v])
								}
							} else {
								t.unionWith(fs.taint[a])
							}
						}
						if fv, ok := x.X.(*ssa.FreeVar); ok && !reached {
							// A captured variable this closure assigned
							// before: what it assigned.
							if v := reachingFree(fs, x, fv); v != nil {
								t.unionWith(fs.taint[v])
								reached = true
							}
						}
						if !reached {
							if !fs.unlockedShared(instr) && !fs.e.immutableLoad(x) {
								t.unionWith(fs.taint[x.X])
							} else if growThrough(x, fs.taint[x.X]) {
								changed = true
							}
						}
					} else {
						t.unionWith(fs.taint[x.X])
					}
				case *ssa.Extract:
					t.unionWith(fs.taint[x.Tuple])
					if ri, ok := fs.tupleRead(x); ok && !fs.carries(ri, x.Index) {
						t = t.without(ri)
					}
				case *ssa.Field:
					if l, ok := fs.fieldLabel[x]; ok {
						t.add(l) // that field of the argument, not the rest of it
					} else {
						t.unionWith(fs.taint[x.X])
					}
				case *ssa.MakeMap:
					// A size hint: the new map is empty whatever it says.
				case *ssa.MakeSlice:
					t.unionWith(fs.taint[x.Len]) // the capacity is only a hint
				case *ssa.Lookup:
					// A re-lookup by a stale key still reads fresh state.
					if !fs.unlockedShared(instr) {
						t.unionWith(fs.taint[x.X])
					}
				case *ssa.Store:
					if a := fs.localRoot(x.Addr); a != nil {
						if grow(a, fs.taint[x.Val]) {
							changed = true
						}
						if growThrough(a, fs.through[x.Val]) {
							changed = true
						}
					}
					continue
				default:
					v, ok := instr.(ssa.Value)
					if !ok {
						continue
					}
					ops = instr.Operands(ops[:0])
					for _, o := range ops {
						if *o != nil {
							t.unionWith(fs.taint[*o])
						}
					}
					_ = v
				}
				if i, ok := fs.readIdx[instr]; ok {
					t.add(i)
					for _, a := range fs.outs[instr] {
						var out bitset
						out.add(i)
						if grow(a, out) {
							changed = true
						}
					}
				}
				if v, ok := instr.(ssa.Value); ok {
					if grow(v, t) {
						changed = true
					}
					ops = instr.Operands(ops[:0])
					for _, o := range ops {
						if *o != nil && growThrough(v, fs.through[*o]) {
							changed = true
						}
					}
				}
			}
		}
		if !changed {
			break
		}
	}
}

// growLabels adds t to m[v] and reports whether that changed it.
func growLabels(m map[ssa.Value]bitset, v ssa.Value, t bitset) bool {
	if t.empty() {
		return false
	}
	cur := m[v]
	g := cur.unionWith(t)
	m[v] = cur
	return g
}

// dataTaint is the union of the taints of vs.
func (fs *funcState) dataTaint(vs []ssa.Value) bitset {
	var t bitset
	for _, v := range vs {
		t.unionWith(fs.taint[v])
	}
	return t
}

// sameSection reports whether two program points are in one section of
// lock k.
func sameSection(a, b lockState, k pathKey) bool {
	ha, ok1 := a.lookup(k)
	hb, ok2 := b.lookup(k)
	return ok1 && ok2 && intersects(ha.openers, hb.openers)
}

// plainType reports whether values of t carry no identity: copying one
// gives an equal, independent value (numbers, strings, and structs and
// arrays of them).
func plainType(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return u.Kind() != types.UnsafePointer
	case *types.Struct:
		for i := range u.NumFields() {
			if !plainType(u.Field(i).Type()) {
				return false
			}
		}
		return true
	case *types.Array:
		return plainType(u.Elem())
	}
	return false
}

// loadedRecord reports whether v is of a record type (plain values, and
// pointers, slices and arrays of them) and comes from a loader: a call
// through an interface or a function value, or into another package. A
// constructor of this package makes objects, which have identity.
//
// A field of a loaded record is loaded too, and so is a choice between
// loaded records and fresh zero ones (the response's part, or an empty
// one when the response has none).
func loadedRecord(v ssa.Value, pkg *ssa.Package) bool {
	return recordType(v.Type()) && loadedFrom(v, pkg, 0)
}

func loadedFrom(v ssa.Value, pkg *ssa.Package, depth int) bool {
	if depth > 4 {
		return false
	}
	switch x := v.(type) {
	case *ssa.Extract:
		return loadedFrom(x.Tuple, pkg, depth+1)
	case *ssa.Call:
		callee := x.Call.StaticCallee()
		return callee == nil || callee.Pkg != pkg
	case *ssa.UnOp:
		if fa, ok := x.X.(*ssa.FieldAddr); ok && x.Op == token.MUL {
			return loadedFrom(fa.X, pkg, depth+1)
		}
	case *ssa.Phi:
		for _, e := range x.Edges {
			if zeroObject(e) {
				continue
			}
			if !loadedFrom(e, pkg, depth+1) {
				return false
			}
		}
		return true
	case *ssa.Alloc:
		// A record assembled here from loaded parts (and zero ones).
		return fieldsLoaded(x, pkg, depth)
	}
	return false
}

// fieldsLoaded reports whether every store into a's fields stores a
// constant, a loaded record or a fresh zero one, and a is written no
// other way.
func fieldsLoaded(a *ssa.Alloc, pkg *ssa.Package, depth int) bool {
	stores := 0
	for _, r := range *a.Referrers() {
		switch r := r.(type) {
		case *ssa.FieldAddr:
			for _, u := range *r.Referrers() {
				st, ok := u.(*ssa.Store)
				if !ok {
					if _, load := u.(*ssa.UnOp); load {
						continue
					}
					return false
				}
				stores++
				if _, ok := st.Val.(*ssa.Const); ok {
					continue
				}
				if zeroObject(st.Val) {
					continue
				}
				if !loadedFrom(st.Val, pkg, depth+1) {
					return false
				}
			}
		case *ssa.Store:
			if overwrites(r, a) {
				return false
			}
		case *ssa.IndexAddr:
			return false
		}
	}
	return stores > 0
}

// zeroObject reports whether v is a new object only handed on, never
// written: a zero value (&T{}).
func zeroObject(v ssa.Value) bool {
	a, ok := v.(*ssa.Alloc)
	if !ok || !a.Heap {
		return false
	}
	for _, r := range *a.Referrers() {
		switch r := r.(type) {
		case *ssa.FieldAddr, *ssa.IndexAddr:
			return false
		case *ssa.Store:
			if overwrites(r, a) {
				return false
			}
		}
	}
	return true
}

// overwrites reports whether st stores into a itself something other than
// a constant (the zero value a composite literal starts from).
func overwrites(st *ssa.Store, a *ssa.Alloc) bool {
	_, zero := st.Val.(*ssa.Const)
	return st.Addr == a && !zero
}

func recordType(t types.Type) bool {
	return isRecord(t, make(map[types.Type]bool))
}

// isRecord decides recordType, each type once: a type met again while it
// is being decided (a recursive message) counts as a record on that path,
// its other fields decide.
func isRecord(t types.Type, seen map[types.Type]bool) bool {
	if v, ok := seen[t]; ok {
		return v
	}
	seen[t] = true
	v := recordShape(t, seen)
	seen[t] = v
	return v
}

func recordShape(t types.Type, seen map[types.Type]bool) bool {
	if n, ok := types.Unalias(t).(*types.Named); ok && n.Obj().Pkg() != nil {
		switch n.Obj().Pkg().Path() {
		case "sync", "sync/atomic":
			return false
		case "google.golang.org/protobuf/internal/impl":
			// A generated message's bookkeeping (its runtime state),
			// not data of its own.
			return true
		}
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return u.Kind() != types.UnsafePointer
	case *types.Struct:
		for i := range u.NumFields() {
			if !isRecord(u.Field(i).Type(), seen) {
				return false
			}
		}
		return true
	case *types.Array:
		return isRecord(u.Elem(), seen)
	case *types.Slice:
		return isRecord(u.Elem(), seen)
	case *types.Pointer:
		return isRecord(u.Elem(), seen)
	}
	return false
}

// phiGate is the taint a phi takes from the branches that choose between
// its incoming values.
func (fs *funcState) phiGate(phi *ssa.Phi) bitset {
	var t bitset
	for _, c := range fs.phiGateBlocks(phi) {
		t.unionWith(fs.taint[ifCond(c)])
	}
	return t
}

// phiGateBlocks returns the branches that choose between phi's incoming
// values. A branch counts only when the edges it decides carry different
// values: a loop counter merged from both arms of an if does not depend
// on the if.
func (fs *funcState) phiGateBlocks(phi *ssa.Phi) []*ssa.BasicBlock {
	b := phi.Block()
	type group struct {
		first ssa.Value
		mixed bool
	}
	groups := make(map[*ssa.BasicBlock]*group)
	var order []*ssa.BasicBlock
	note := func(c *ssa.BasicBlock, v ssa.Value) {
		g := groups[c]
		if g == nil {
			groups[c] = &group{first: v}
			order = append(order, c)
			return
		}
		if g.first != v {
			g.mixed = true
		}
	}
	for i, p := range b.Preds {
		v := phi.Edges[i]
		if ifCond(p) != nil {
			note(p, v)
		}
		for _, d := range fs.cd.deps[p.Index] {
			note(d.block, v)
		}
	}
	var gates []*ssa.BasicBlock
	for _, c := range order {
		if groups[c].mixed {
			gates = append(gates, c)
		}
	}
	return gates
}

// flagPhi reports whether phi merges values none of which carries a read
// (constants, a loop's own index), at least one of them a constant, with
// a lock held: a flag or a sentinel that a search sets where it finds its
// match. (A flag set after a section records what the function did, not
// what it found.)
func (fs *funcState) flagPhi(phi *ssa.Phi) bool {
	if len(fs.flow.entry[phi.Block()]) == 0 {
		return false
	}
	constant := false
	for _, e := range phi.Edges {
		if !fs.taint[e].empty() {
			return false
		}
		if _, ok := e.(*ssa.Const); ok {
			constant = true
		}
	}
	return constant
}

// reachedThrough reports whether the location written from base is reached
// through the value of read ri: a field, element or pointee of it.
func (fs *funcState) reachedThrough(base ssa.Value, ri int) bool {
	target := fs.reads[ri].value
	for v := base; v != nil; {
		if v == target {
			return true
		}
		if x, ok := v.(*ssa.Extract); ok {
			if ri, ok := fs.tupleRead(x); ok && !fs.carries(ri, x.Index) {
				return false // a result the helper's read does not reach
			}
			v = x.Tuple // a result of a helper that reads, say
			continue
		}
		v, _, _ = selection(v, false)
	}
	return false
}

// unlockedShared reports whether instr reads shared state with no lock
// held. Such a read is of state that does not change (or the code has a
// data race, which is the race detector's business); a stale pointer it
// goes through does not make the value read stale.
func (fs *funcState) unlockedShared(instr ssa.Instruction) bool {
	ri, ok := fs.readIdx[instr]
	return ok && len(fs.reads[ri].held) == 0 && fs.lockedFunc
}

// lockedReads reports whether t holds a read made under some lock (as
// opposed to only inputs and unlocked reads).
func (fs *funcState) lockedReads(t bitset) bool {
	found := false
	t.each(func(ri int) {
		if len(fs.reads[ri].held) > 0 {
			found = true
		}
	})
	return found
}

func isAppend(v ssa.Value) bool {
	c, ok := v.(*ssa.Call)
	if !ok {
		return false
	}
	b, ok := c.Call.Value.(*ssa.Builtin)
	return ok && b.Name() == "append"
}

// resultsCarrying returns the results of a helper that carry any of its
// reads (0: all of them).
func resultsCarrying(reads []relRead) uint32 {
	var m uint32
	for _, r := range reads {
		if r.results == 0 {
			return 0
		}
		m |= r.results
	}
	return m
}

// carries reports whether result i of the call at read site ri carries
// what the helper read.
func (fs *funcState) carries(ri, i int) bool {
	m := fs.reads[ri].results
	return m == 0 || i >= 32 || m&(1<<i) != 0
}

// tupleRead returns the read site of the call whose result x extracts.
func (fs *funcState) tupleRead(x *ssa.Extract) (int, bool) {
	in, ok := x.Tuple.(ssa.Instruction)
	if !ok {
		return 0, false
	}
	ri, ok := fs.readIdx[in]
	return ri, ok
}

// reachingOf memoises reachingValues across the rounds of computeTaint.
func (fs *funcState) reachingOf(load *ssa.UnOp, a *ssa.Alloc) ([]ssa.Value, bool) {
	return memoisedValues(&fs.reaching, load, func() ([]ssa.Value, bool) { return fs.reachingValues(load, a) })
}

// memoisedValues answers for load from *memo, computing the answer once;
// a nil entry records "no answer".
func memoisedValues(memo *map[*ssa.UnOp][]ssa.Value, load *ssa.UnOp, compute func() ([]ssa.Value, bool)) ([]ssa.Value, bool) {
	if r, ok := (*memo)[load]; ok {
		return r, r != nil
	}
	vals, ok := compute()
	if *memo == nil {
		*memo = make(map[*ssa.UnOp][]ssa.Value)
	}
	if !ok {
		vals = nil
	}
	(*memo)[load] = vals
	return vals, ok
}

// reachingValues finds what a load of the local variable a (or of one of
// its fields) reads, when a single store dominates it and no other store of
// the same place can come between: a variable assigned in section A and
// again in section B then carries only B's value from there on. It also
// returns the values stored into a's fields, conservatively. ok is false
// when the variable's address is taken or no such store is found.
func (fs *funcState) reachingValues(load *ssa.UnOp, a *ssa.Alloc) (vals []ssa.Value, ok bool) {
	defs, partial, ok := localDefs(load, a)
	if !ok {
		return nil, false
	}
	best := fs.soleReaching(len(defs), func(i int) ssa.Instruction { return defs[i].instr }, load)
	if best < 0 {
		return nil, false
	}
	vals = append(vals, defs[best].val)
	for _, d := range partial {
		vals = append(vals, d.val)
	}
	return vals, true
}

// refilledCopy returns, for a load of the whole of the local struct
// variable a, the values stored into its fields when every field was
// assigned after the last assignment of the whole (rec := m[k];
// rec.data = d; rec.expires = t; m[k] = rec): what the load reads carries
// nothing of the copy made first.
func (fs *funcState) refilledCopy(load *ssa.UnOp, a *ssa.Alloc) ([]ssa.Value, bool) {
	if load.X != a {
		return nil, false
	}
	return memoisedValues(&fs.refilled, load, func() ([]ssa.Value, bool) { return fs.refilledNow(load, a) })
}

func (fs *funcState) refilledNow(load *ssa.UnOp, a *ssa.Alloc) ([]ssa.Value, bool) {
	st, ok := deref(a.Type()).Underlying().(*types.Struct)
	if !ok || st.NumFields() == 0 {
		return nil, false
	}
	whole, partial, ok := fieldDefs(a, -1)
	if !ok || len(partial) < st.NumFields() {
		return nil, false
	}
	var vals []ssa.Value
	for f := range st.NumFields() {
		cands := slices.Clip(whole)
		for _, d := range partial {
			if store, ok := d.instr.(*ssa.Store); ok && store.Addr.(*ssa.FieldAddr).Field == f {
				cands = append(cands, d)
			}
		}
		i := fs.soleReaching(len(cands), func(i int) ssa.Instruction { return cands[i].instr }, load)
		if i < len(whole) {
			return nil, false // the field still holds what the copy held (or either)
		}
		vals = append(vals, cands[i].val)
	}
	return vals, true
}

// A localDef is a definition of a local variable: a store, or the call of
// a closure made to be called in place that assigns the variable (its
// value: the call, which stands for what the closure read).
type localDef struct {
	instr ssa.Instruction
	val   ssa.Value
}

// localDefs lists the definitions of the local variable a that a load of
// it (or of one of its fields) may read: those of the place loaded, and,
// for a load of the whole variable, partial ones (stores to its fields).
// ok is false when the variable's address is taken.
func localDefs(load *ssa.UnOp, a *ssa.Alloc) (defs, partial []localDef, ok bool) {
	field := -1
	switch addr := load.X.(type) {
	case *ssa.Alloc:
	case *ssa.FieldAddr:
		if addr.X != a {
			return nil, nil, false
		}
		field = addr.Field
	default:
		return nil, nil, false
	}
	return fieldDefs(a, field)
}

// fieldDefs lists the definitions of field field of the local variable a
// (of the whole of it where field < 0; see localDefs).
func fieldDefs(a *ssa.Alloc, field int) (defs, partial []localDef, ok bool) {
	for _, ref := range *a.Referrers() {
		switch x := ref.(type) {
		case *ssa.Store:
			if x.Addr != a {
				return nil, nil, false
			}
			defs = append(defs, localDef{x, x.Val})
		case *ssa.UnOp:
			if x.Op != token.MUL {
				return nil, nil, false
			}
		case *ssa.FieldAddr:
			for _, fref := range *x.Referrers() {
				switch y := fref.(type) {
				case *ssa.Store:
					if y.Addr != x {
						return nil, nil, false
					}
					if x.Field == field {
						defs = append(defs, localDef{y, y.Val})
					} else if field < 0 {
						partial = append(partial, localDef{y, y.Val})
					}
				case *ssa.UnOp:
					if y.Op != token.MUL {
						return nil, nil, false
					}
				case *ssa.DebugRef:
				default:
					return nil, nil, false
				}
			}
		case *ssa.MakeClosure:
			calls, assigns, ok := closureAssigns(x, a)
			if !ok && onlyReadsCaptured(x, a) {
				continue // a closure that only reads the variable defines nothing
			}
			if !ok {
				return nil, nil, false
			}
			if assigns {
				for _, c := range calls {
					defs = append(defs, localDef{c, c})
				}
			}
		case *ssa.DebugRef:
		default:
			return nil, nil, false
		}
	}
	return defs, partial, true
}

// mayReachOf returns the values of the definitions of a that may reach
// the load (memoised): where no single one does, a store on a path that
// returns before the load (a named result set by an early return) still
// cannot be what it reads.
func (fs *funcState) mayReachOf(load *ssa.UnOp, a *ssa.Alloc) ([]ssa.Value, bool) {
	if r, ok := fs.mayReach[load]; ok {
		return r, r != nil
	}
	defs, partial, ok := localDefs(load, a)
	var vals []ssa.Value
	if ok {
		vals = []ssa.Value{} // none reaching is an answer too: the zero value
		for _, d := range append(defs, partial...) {
			if fs.before(d.instr, load) {
				vals = append(vals, d.val)
			}
		}
	}
	if fs.mayReach == nil {
		fs.mayReach = make(map[*ssa.UnOp][]ssa.Value)
	}
	fs.mayReach[load] = vals
	return vals, ok
}

// closureAssigns reports, for a closure made only to be called right
// there, its calls and whether it assigns (all or part of) the variable a
// it captures. ok is false for any other closure, or one that hands the
// variable on.
func closureAssigns(mc *ssa.MakeClosure, a *ssa.Alloc) (calls []*ssa.Call, assigns, ok bool) {
	for _, ref := range *mc.Referrers() {
		c, isCall := ref.(*ssa.Call)
		if !isCall || !inPlace(a.Parent(), c) {
			return nil, false, false
		}
		calls = append(calls, c)
	}
	assigns, ok = capturedUse(mc, a)
	return calls, assigns, ok && len(calls) > 0
}

// onlyReadsCaptured reports whether the closure mc makes only loads the
// variable a it captures (or fields of it), wherever it runs.
func onlyReadsCaptured(mc *ssa.MakeClosure, a *ssa.Alloc) bool {
	assigns, ok := capturedUse(mc, a)
	return ok && !assigns
}

// capturedUse reports whether the closure mc makes stores to the variable
// a it captures (or to fields of it); ok is false when it does anything
// else with it than load and store (hands its address on).
func capturedUse(mc *ssa.MakeClosure, a *ssa.Alloc) (assigns, ok bool) {
	fn, isFn := mc.Fn.(*ssa.Function)
	if !isFn {
		return false, false
	}
	for i, b := range mc.Bindings {
		if b != a || i >= len(fn.FreeVars) {
			continue
		}
		for _, ref := range *fn.FreeVars[i].Referrers() {
			switch x := ref.(type) {
			case *ssa.Store:
				assigns = true
			case *ssa.FieldAddr:
				for _, fref := range *x.Referrers() {
					switch fref.(type) {
					case *ssa.Store:
						assigns = true
					case *ssa.UnOp, *ssa.DebugRef:
					default:
						return false, false
					}
				}
			case *ssa.UnOp:
				if x.Op != token.MUL {
					return false, false
				}
			case *ssa.DebugRef:
			default:
				return false, false
			}
		}
	}
	return assigns, true
}

// dominates reports whether instruction a runs before b on every path to b.
func (fs *funcState) dominates(a, b ssa.Instruction) bool { return runsBefore(a, b) }

// mayComeBetween reports whether mid may run after first and before last.
func (fs *funcState) mayComeBetween(first, mid, last ssa.Instruction) bool {
	fb, mb, lb := first.Block(), mid.Block(), last.Block()
	if mb == lb && fs.before(mid, last) && (fb != lb || fs.before(first, mid)) {
		return true
	}
	// Leave first's block, reach mid's, and go on to last's.
	for _, succ := range fb.Succs {
		if fs.reachable(succ, mb) {
			for _, s2 := range mb.Succs {
				if fs.reachable(s2, lb) {
					return true
				}
			}
			if mb == fb && fs.before(mid, first) {
				continue
			}
			if mb != fb && mb == lb && fs.before(mid, last) {
				return true
			}
		}
	}
	return mb == fb && fs.before(first, mid) && fb != lb && fs.reachableFromEnd(fb, lb)
}

// reachableFromEnd reports whether to can be reached after leaving from.
func (fs *funcState) reachableFromEnd(from, to *ssa.BasicBlock) bool {
	for _, succ := range from.Succs {
		if fs.reachable(succ, to) {
			return true
		}
	}
	return false
}

// mergesItself reports whether a store or map update writes the larger
// or smaller of the value the location holds, loaded in the same block,
// and something else: x = max(x, v), m[k] = min(m[k], v). A high-water
// mark kept so weighs whatever another goroutine stored there since a
// stale read, instead of overwriting it.
func mergesItself(instr ssa.Instruction) bool {
	var val ssa.Value
	var holdsSame func(ssa.Value) bool
	switch x := instr.(type) {
	case *ssa.Store:
		val = x.Val
		holdsSame = func(v ssa.Value) bool { return loadsFrom(v, x.Addr) }
	case *ssa.MapUpdate:
		val = x.Value
		holdsSame = func(v ssa.Value) bool {
			l, ok := v.(*ssa.Lookup)
			return ok && !l.CommaOk && l.Index == x.Key && pathOf(l.X).key() == pathOf(x.Map).key()
		}
	default:
		return false
	}
	call, ok := val.(*ssa.Call)
	if !ok || call.Block() != instr.Block() {
		return false
	}
	bi, ok := call.Call.Value.(*ssa.Builtin)
	if !ok || bi.Name() != "max" && bi.Name() != "min" {
		return false
	}
	// The load, the builtin and the write, in this order, with no call
	// between them (no lock let go of and taken again).
	inSection := false
	for _, i := range instr.Block().Instrs {
		v, isValue := i.(ssa.Value)
		switch {
		case i == instr:
			return inSection
		case i == call:
		case isValue && slices.Contains(call.Call.Args, v) && holdsSame(v):
			inSection = true
		default:
			if _, isCall := i.(ssa.CallInstruction); isCall {
				inSection = false
			}
		}
	}
	return false
}

// cutsItself reports whether the store puts back a cut of the slice it
// loads from the same address (s.q = s.q[1:], s.q = s.q[:n-1]).
func cutsItself(st *ssa.Store) bool {
	sl, ok := st.Val.(*ssa.Slice)
	if !ok {
		return false
	}
	return loadsFrom(sl.X, st.Addr)
}

// loadsFrom reports whether v is a load of the location at addr (by its
// access path: a second &s.f of the same field counts).
func loadsFrom(v, addr ssa.Value) bool {
	load, ok := v.(*ssa.UnOp)
	return ok && load.Op == token.MUL && pathOf(load.X).key() == pathOf(addr).key()
}

// inPlace reports whether instr calls a closure of fn made for that one
// call (a function literal called where it is written, to scope a
// defer): its body is a block of fn. A closure kept in a variable and
// called from several places is a helper like any other.
func inPlace(fn *ssa.Function, instr ssa.Instruction) bool {
	call, ok := instr.(*ssa.Call)
	if !ok {
		return false
	}
	mc, ok := call.Call.Value.(*ssa.MakeClosure)
	if !ok {
		// The body of a range-over-func loop runs in place too, while
		// the iterator runs.
		body, mc := yieldBody(call)
		return body != nil && body.Parent() == fn && (mc == nil || len(*mc.Referrers()) == 1)
	}
	f, ok := mc.Fn.(*ssa.Function)
	refs := mc.Referrers()
	return ok && f.Parent() == fn && refs != nil && len(*refs) == 1 && (*refs)[0] == instr
}

// reachingFree returns the value a load of the captured variable fv
// reads when the closure itself assigned it on every way there, with no
// other assignment in between (nil otherwise).
func reachingFree(fs *funcState, load *ssa.UnOp, fv *ssa.FreeVar) ssa.Value {
	var stores []*ssa.Store
	for _, ref := range *fv.Referrers() {
		switch x := ref.(type) {
		case *ssa.Store:
			if x.Addr == fv {
				stores = append(stores, x)
			}
		case *ssa.MakeClosure, *ssa.FieldAddr:
			return nil // a nested closure may assign it too, or a store a part of it
		}
	}
	best := fs.soleReaching(len(stores), func(i int) ssa.Instruction { return stores[i] }, load)
	if best < 0 {
		return nil
	}
	return stores[best].Val
}

// soleReaching returns which of n definitions (def(i)) reaches use on
// every way there with no other coming between, or -1.
func (fs *funcState) soleReaching(n int, def func(int) ssa.Instruction, use ssa.Instruction) int {
	best := -1
	for i := range n {
		if fs.dominates(def(i), use) && (best < 0 || fs.dominates(def(best), def(i))) {
			best = i
		}
	}
	if best < 0 {
		return -1
	}
	for i := range n {
		if i != best && fs.mayComeBetween(def(best), def(i), use) {
			return -1
		}
	}
	return best
}

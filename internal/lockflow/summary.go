package lockflow

import (
	"go/token"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// A summary says what a function does to the state reachable from its
// parameters, free variables and package variables, in terms a caller can
// map onto its own arguments. Summaries stand in for callee bodies, so a
// helper that takes sd.mu itself, or writes sd.cache under its caller's
// lock, counts at the call site.
type summary struct {
	acquires []relLock  // locks taken and released inside the function
	writes   []relWrite // shared locations written
	results  []relRead  // reads under the function's own lock that flow into its results
	// outs: for a closure, reads under its own lock that it stores into
	// a variable it captured (free is the variable's index): a closure
	// called in place to scope a defer hands its findings back that way.
	outs []relRead
	// ensures: entries the function, on every way through it that
	// returns, looks up by a parameter in a section of its own lock and
	// creates where missing (a get-or-create).
	ensures []relEnsure
	// callbacks: the locks the function takes itself and holds at every
	// call of a parameter (an iterator's yield, a callback; iterlock.go).
	callbacks []paramLocks
	// For exported functions, what their facts carry for other
	// packages: takesFirst, the locks taken on every run before any
	// release (takenFirst); iterLocks, for a function returning an
	// iterator, the locks that iterator holds at every yield
	// (returnedIterLocks).
	takesFirst []relLockAt
	iterLocks  []relLockAt
}

// relEnsure is one get-or-create: in one section of lock, the entry at
// loc, under the key parameter key-1 carries, is looked up and, where it
// is missing, stored; nothing in the function deletes it.
type relEnsure struct {
	loc  relPath
	key  int
	lock relLock
}

func (s *summary) empty() bool {
	return s == nil || len(s.acquires)+len(s.writes)+len(s.results)+len(s.outs) == 0
}

// relPath is an access path relative to the callee's inputs.
type relPath struct {
	param  int         // index into Params, or -1-i for FreeVars[i]; ignored when global != nil
	global *ssa.Global // root is a package variable
	steps  string
}

type relLock struct {
	path relPath
	mode Mode
}

type relWrite struct {
	loc        relPath
	lock       *relLock // the callee's own lock held at the write; nil when it relies on the caller's
	guards     []relGuard
	kind       writeKind // store, map update, delete or clear (never writeCall)
	collection bool      // see writeSite.collection
	removal    bool      // see writeSite.removal
	empties    bool      // see writeSite.empties
	typeReqs   []typeReq // the write happens only for these dynamic types of parameters
	takes      bool      // see writeSite.takes
	swaps      bool      // see writeSite.swaps
	merges     bool      // see writeSite.merges
	key        string    // see writeSite.key
	// dataFrom lists the parameters whose values flow into what is written;
	// dataFields the fields of struct parameters that do, where only
	// those fields are selected from them.
	dataFrom   []int
	dataFields []paramField
	// fixed names the one value the write stores whatever the call (a
	// constant; see fixedKey), "" otherwise; storedParam is 1+i when it
	// stores parameter i as it is.
	fixed       string
	storedParam int
	// keyFrom and keyMarks say where the key of the entry written comes
	// from, where keyKnown: the parameters (numbered as relPath numbers
	// them), and the functions and package variables involved (see
	// otherEntry).
	keyFrom  []int
	keyMarks []string
	keyKnown bool
	// resolved lists what the callee itself reads under a lock, in an
	// earlier section than the write, to decide it: a caller's read of the
	// same location is superseded by it (the callee's own gap, if any, is
	// reported in the callee).
	resolved []relPath
}

// relGuard is a re-read inside the callee that controls a write.
type relGuard struct {
	loc            relPath
	existence      bool // a nil or comma-ok test
	writeOnMissing bool // the write is on the "missing" side of the test
	missingCreates bool // the "missing" side writes the location too
	missingFails   bool // the "missing" side returns an error (guard.missingFails)
	// against: 1+i when the guard compares what it read with what
	// parameter i carries (a generation or version the caller saw), the
	// write made only where they agree (see versionGuards); 0 otherwise.
	against int
}

type relRead struct {
	loc  relPath
	lock relLock
	// callerLock: the read is made with no lock held, under whatever
	// lock the caller holds (a ...Locked helper); lock is unset. Only
	// calls made with a lock held see it, and it stays out of facts.
	callerLock bool
	// recheckOnly: a callerLock read of a plain helper that does not say
	// it expects the lock held (see readSite.recheckOnly).
	recheckOnly bool
	// results: which of a multi-result function's results carry the read
	// (bit i for result i); 0 for all of them.
	results uint32
	// picked: the read reaches the results only where a test of guarded
	// state let it (a listing of the expired entries, not of all).
	picked bool
	// orderOnly: the read only decided where each element of a listing
	// went (first or last), every element going somewhere: what the
	// listing holds does not depend on it.
	orderOnly bool
	// found: the function's one result is a bool saying only whether the
	// location is there (the found result of a comma-ok lookup of it):
	// testing it tests existence.
	found bool
	// bound: the function's one result is a bool comparing the location
	// with a bound (return len(q.items) < q.max): testing it is a limit
	// test, as the comparison would be in the caller.
	bound bool
	// missing: the function's error result is a verdict on whether the
	// location is there (if _, ok := m[k]; ok { return ErrTaken }): which
	// outcome says it was missing.
	missing  missingWhen
	sentinel string // for missingOnSentinel: the failure that means missing
	// key: 1+i when the read is of a map entry looked up by parameter i;
	// 0 otherwise.
	key int
	// keyFrom, keyMarks: where the key the entry was looked up by comes
	// from, where keyKnown (as for relWrite; see otherEntry).
	keyFrom  []int
	keyMarks []string
	keyKnown bool
	free     int       // outs only: the captured variable stored to
	pos      token.Pos // outs only: the read in the closure
}

// toRel expresses a path of fn relative to its inputs, if it has such a
// form.
func toRel(fn *ssa.Function, p Path) (relPath, bool) {
	switch r := p.Root.(type) {
	case *ssa.Parameter:
		for i, q := range fn.Params {
			if q == r {
				return relPath{param: i, steps: p.Steps}, true
			}
		}
	case *ssa.FreeVar:
		for i, q := range fn.FreeVars {
			if q == r {
				return relPath{param: -1 - i, steps: p.Steps}, true
			}
		}
	case *ssa.Global:
		return relPath{global: r, steps: p.Steps}, true
	}
	return relPath{}, false
}

// callSite describes a call of a summarised function.
type callSite struct {
	instr    ssa.CallInstruction
	args     []ssa.Value // parameters, receiver first
	bindings []ssa.Value // free variables of a called closure
}

// entryOrigin returns, for the entry a helper's results read at loc,
// the caller's values and the marks its key comes from, when every such
// read knows it.
func (cs *callSite) entryOrigin(results []relRead, loc Path) (from []ssa.Value, marks []string, ok bool) {
	for _, r := range results {
		l, resolved := cs.resolve(r.loc)
		if !resolved || l.key() != loc.key() {
			continue
		}
		if !r.keyKnown {
			return nil, nil, false
		}
		for _, p := range r.keyFrom {
			v := cs.rootValue(relPath{param: p})
			if v == nil {
				return nil, nil, false
			}
			from = append(from, v)
		}
		marks = mergeStrings(marks, withoutFieldMarks(r.keyMarks))
		ok = true
	}
	return from, marks, ok
}

// entryKey returns the caller's argument by which the helper looked up
// the entry its results read at loc, when every such read used one.
func (cs *callSite) entryKey(results []relRead, loc Path) ssa.Value {
	var key ssa.Value
	for _, r := range results {
		l, ok := cs.resolve(r.loc)
		if !ok || l.key() != loc.key() {
			continue
		}
		if r.key == 0 {
			return nil
		}
		k := cs.rootValue(relPath{param: r.key - 1})
		if k == nil || key != nil && k != key {
			return nil
		}
		key = k
	}
	return key
}

// resolve maps a callee-relative location onto the caller.
func (cs *callSite) resolve(rp relPath) (Path, bool) { return cs.resolvePath(rp, pathOf) }

// resolveLock maps a callee-relative lock onto the caller.
func (cs *callSite) resolveLock(rp relPath) (Path, bool) { return cs.resolvePath(rp, lockPathOf) }

func (cs *callSite) resolvePath(rp relPath, of func(ssa.Value) Path) (Path, bool) {
	var root ssa.Value
	switch {
	case rp.global != nil:
		root = rp.global
	case rp.param >= 0:
		if rp.param >= len(cs.args) {
			return Path{}, false
		}
		root = cs.args[rp.param]
	default:
		i := -1 - rp.param
		if i >= len(cs.bindings) {
			return Path{}, false
		}
		root = cs.bindings[i]
	}
	base := of(root)
	return unbox(Path{Root: base.Root, Steps: base.Steps + rp.steps}), true
}

// rootValue returns the caller's value a callee-relative path starts from.
func (cs *callSite) rootValue(rp relPath) ssa.Value {
	switch {
	case rp.global != nil:
		return rp.global
	case rp.param >= 0 && rp.param < len(cs.args):
		return cs.args[rp.param]
	case rp.param < 0 && -1-rp.param < len(cs.bindings):
		return cs.bindings[-1-rp.param]
	}
	return nil
}

// calleeOf returns the function called and how its inputs bind, for calls
// of functions of the package being analysed (including closures called
// in place). Calls through interfaces or function values are not followed.
func calleeOf(pkg *ssa.Package, call ssa.CallInstruction) (*ssa.Function, *callSite) {
	c := call.Common()
	if c.IsInvoke() {
		return nil, nil
	}
	cs := &callSite{instr: call, args: c.Args}
	switch f := c.Value.(type) {
	case *ssa.Function:
		fn := f
		if fn.Origin() != nil {
			fn = fn.Origin()
		}
		if fn.Pkg == pkg {
			return fn, cs
		}
	case *ssa.MakeClosure:
		fn, ok := f.Fn.(*ssa.Function)
		if !ok || fn.Pkg != pkg {
			return nil, nil
		}
		cs.bindings = f.Bindings
		return fn, cs
	}
	if body, mc := yieldBody(call); body != nil && body.Pkg == pkg {
		// An iterator that is a function value, or another package's:
		// what the call does, as far as the caller can tell, is run the
		// loop's body (any number of times) before it returns.
		cs.args = nil // the loop's variables: the iterator's values
		if mc != nil {
			cs.bindings = mc.Bindings
		}
		return body, cs
	}
	return nil, nil
}

// yieldBody returns the body of the range-over-func loop that call runs,
// when call hands the iterator that body (go/ssa made it a function, or
// a closure made for that call alone), and the closure made of it.
func yieldBody(call ssa.CallInstruction) (*ssa.Function, *ssa.MakeClosure) {
	c, ok := call.(*ssa.Call)
	if !ok || c.Call.IsInvoke() {
		return nil, nil
	}
	for _, a := range c.Call.Args {
		switch x := a.(type) {
		case *ssa.Function:
			if x.Synthetic == "range-over-func yield" {
				return x, nil
			}
		case *ssa.MakeClosure:
			if f, ok := x.Fn.(*ssa.Function); ok && yieldCall(x, f) == c {
				return f, x
			}
		}
	}
	return nil, nil
}

// maxWrites bounds the writes a summary keeps, so summaries stay small as
// they are composed up the call graph.
const maxWrites = 32

// addWrite merges w into the summary: writes of one location under one
// lock become one, with their guards and data sources joined.
func (s *summary) addWrite(w relWrite) {
	for i := range s.writes {
		x := &s.writes[i]
		if x.loc != w.loc || (x.lock == nil) != (w.lock == nil) || (x.lock != nil && *x.lock != *w.lock) ||
			x.kind != w.kind || x.removal != w.removal || x.collection != w.collection || x.takes != w.takes {
			continue
		}
		for _, g := range w.guards {
			if len(x.guards) < maxGuards && !slices.Contains(x.guards, g) {
				x.guards = append(x.guards, g)
			}
		}
		for _, p := range w.dataFrom {
			if !slices.Contains(x.dataFrom, p) {
				x.dataFrom = append(x.dataFrom, p)
			}
		}
		for _, pf := range w.dataFields {
			if !slices.Contains(x.dataFields, pf) {
				x.dataFields = append(x.dataFields, pf)
			}
		}
		if x.key != w.key {
			x.key = "" // entries under several keys: any of them
		}
		if x.fixed != w.fixed {
			x.fixed = ""
		}
		if x.storedParam != w.storedParam {
			x.storedParam = 0
		}
		if x.keyKnown = x.keyKnown && w.keyKnown; x.keyKnown {
			x.keyMarks = mergeKeyMarks(x.keyFrom, x.keyMarks, w.keyFrom, w.keyMarks)
			x.keyFrom = mergeInts(x.keyFrom, w.keyFrom)
		}
		x.swaps = x.swaps && w.swaps // a claim only if every such write takes the value
		x.merges = x.merges && w.merges
		x.empties = x.empties && w.empties
		x.typeReqs = eitherTypeReqs(x.typeReqs, w.typeReqs)
		return
	}
	if len(s.writes) < maxWrites {
		s.writes = append(s.writes, w)
	}
}

// addResult records a read that flows into the results, merging the
// results it reaches with those of an earlier record of the same read.
func (s *summary) addResult(r relRead) {
	for i := range s.results {
		x := &s.results[i]
		if x.loc != r.loc || x.lock != r.lock || x.callerLock != r.callerLock || x.recheckOnly != r.recheckOnly {
			continue
		}
		x.picked = x.picked || r.picked
		x.orderOnly = x.orderOnly && r.orderOnly
		x.found = x.found && r.found
		x.bound = x.bound && r.bound
		switch {
		case x.missing == 0:
			// A verdict on the read beside a value carrying it.
			x.missing, x.sentinel = r.missing, r.sentinel
		case r.missing != 0 && (r.missing != x.missing || r.sentinel != x.sentinel):
			x.missing, x.sentinel = 0, "" // verdicts that disagree
		}
		if x.key != r.key {
			x.key = 0
		}
		if x.keyKnown = x.keyKnown && r.keyKnown; x.keyKnown {
			x.keyFrom = mergeInts(x.keyFrom, r.keyFrom)
			x.keyMarks = mergeStrings(x.keyMarks, r.keyMarks)
		}
		if x.results == 0 || r.results == 0 {
			x.results = 0
		} else {
			x.results |= r.results
		}
		return
	}
	s.results = append(s.results, r)
}

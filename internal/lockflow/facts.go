package lockflow

import (
	"fmt"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// LockSummary is the fact lockflow exports for a function or method that
// takes locks (itself or through helpers): its summary in terms of its
// parameters and package variables, so that callers in other packages see
// it under go vet -vettool. It holds no SSA and round-trips through gob.
type LockSummary struct {
	Acquires []FactLock
	Writes   []FactWrite
	Results  []FactRead
	Ensures  []FactEnsure `json:",omitempty"`
	// TakesFirst: the locks the function takes on every run before it
	// releases any (takenFirst): a caller holding one deadlocks. Yields:
	// for a function returning an iterator, the locks the iterator holds
	// at every yield, while a loop body runs (iterlock.go).
	TakesFirst []FactLock `json:",omitempty"`
	Yields     []FactLock `json:",omitempty"`
	// Callbacks: per parameter the function calls (a Range's visitor),
	// the locks it holds at every call of it.
	Callbacks []FactCallback `json:",omitempty"`
	// KeepsReceiver: a method that lets its receiver reach no other
	// goroutine and keeps it nowhere past the call (staysLocal), so an
	// object a caller made and only calls such methods on stays the
	// caller's (unsharedLocal).
	KeepsReceiver bool `json:",omitempty"`
}

// FactCallback is a paramLocks: parameter Param is called with Locks held.
type FactCallback struct {
	Param int
	Locks []FactLock
}

func (*LockSummary) AFact() {}

// String renders the fact for analysistest's fact expectations, e.g.
// "locks s.mu; writes s.items under s.mu; returns s.items read under s.mu".
func (f *LockSummary) String() string {
	var parts []string
	for _, l := range f.Acquires {
		parts = append(parts, "locks "+l.String())
	}
	for _, w := range f.Writes {
		s := "writes " + w.Loc.String()
		if w.Lock != nil {
			s += " under " + w.Lock.Path.String()
		}
		for _, g := range w.Guards {
			if g.Against > 0 {
				s += fmt.Sprintf(" where %s matches arg%d", g.Loc, g.Against-1)
			}
		}
		parts = append(parts, s)
	}
	for _, r := range f.Results {
		s := "returns " + r.Loc.String() + " read under " + r.Lock.Path.String()
		if r.Picked {
			s = "returns " + r.Loc.String() + " picked by a test under " + r.Lock.Path.String()
		}
		if r.Found {
			s = "returns whether " + r.Loc.String() + " is there, read under " + r.Lock.Path.String()
		}
		if r.Bound {
			s = "returns whether " + r.Loc.String() + " is within a bound, read under " + r.Lock.Path.String()
		}
		if r.Results != 0 {
			var idx []string
			for i := 0; i < 32; i++ {
				if r.Results&(1<<i) != 0 {
					idx = append(idx, fmt.Sprint(i))
				}
			}
			s += " into result " + strings.Join(idx, ",")
		}
		if r.Missing != 0 {
			s += " (the error says whether it is there)"
		}
		parts = append(parts, s)
	}
	for _, en := range f.Ensures {
		parts = append(parts, fmt.Sprintf("creates %s by arg%d where missing, under %s", en.Loc, en.Key-1, en.Lock.Path))
	}
	for _, l := range f.TakesFirst {
		parts = append(parts, "takes "+l.String()+" first")
	}
	for _, l := range f.Yields {
		parts = append(parts, "yields under "+l.String())
	}
	for _, c := range f.Callbacks {
		for _, l := range c.Locks {
			parts = append(parts, fmt.Sprintf("calls arg%d under %s", c.Param, l))
		}
	}
	return strings.Join(parts, "; ")
}

// FactPath is a relPath: parameter index (receiver first), or a package
// variable, followed by encoded steps.
type FactPath struct {
	Param      int
	GlobalPkg  string
	GlobalName string
	Steps      string
}

func (p FactPath) String() string {
	if p.GlobalName != "" {
		return p.GlobalName + renderSteps(p.Steps)
	}
	return fmt.Sprintf("arg%d%s", p.Param, renderSteps(p.Steps))
}

type FactLock struct {
	Path FactPath
	Read bool
	// RW: a sync.RWMutex (set for TakesFirst and Yields, which report
	// deadlocks by the kind of lock).
	RW bool `json:",omitempty"`
}

func (l FactLock) String() string {
	if l.Read {
		return l.Path.String() + " (read)"
	}
	return l.Path.String()
}

type FactWrite struct {
	Loc         FactPath
	Lock        *FactLock
	Guards      []FactGuard
	Kind        uint8
	Collection  bool
	Removal     bool
	Takes       bool
	Swaps       bool      `json:",omitempty"` // relWrite.swaps
	Merges      bool      `json:",omitempty"` // relWrite.merges
	Empties     bool      `json:",omitempty"` // relWrite.empties
	TypeReqs    []typeReq `json:",omitempty"` // relWrite.typeReqs
	DataFrom    []int
	DataFields  []paramField `json:",omitempty"` // relWrite.dataFields
	Resolved    []FactPath
	Key         string   `json:",omitempty"` // relWrite.key
	Fixed       string   `json:",omitempty"` // relWrite.fixed
	StoredParam int      `json:",omitempty"` // relWrite.storedParam
	EntryKey    *FactKey `json:",omitempty"` // relWrite.keyFrom, keyMarks where keyKnown
}

// FactKey says where the key of a map entry comes from (see otherEntry):
// the parameters (numbered as FactPath numbers them) and the functions
// and package variables involved.
type FactKey struct {
	From  []int    `json:",omitempty"`
	Marks []string `json:",omitempty"`
}

func factKey(known bool, from []int, marks []string) *FactKey {
	if !known {
		return nil
	}
	return &FactKey{From: from, Marks: marks}
}

// unpack returns the key as a summary holds it.
func (k *FactKey) unpack() (from []int, marks []string, known bool) {
	if k == nil {
		return nil, nil, false
	}
	return k.From, k.Marks, true
}

type FactGuard struct {
	Loc                                       FactPath
	Existence, WriteOnMissing, MissingCreates bool
	MissingFails                              bool `json:",omitempty"`
	// Against: 1+i when the guard compares its fresh read with what
	// parameter i carries (relGuard.against).
	Against int `json:",omitempty"`
}

type FactRead struct {
	Loc       FactPath
	Lock      FactLock
	Results   uint32   `json:",omitempty"`
	Picked    bool     `json:",omitempty"`
	OrderOnly bool     `json:",omitempty"`
	Found     bool     `json:",omitempty"`
	Bound     bool     `json:",omitempty"`
	Missing   uint8    `json:",omitempty"` // relRead.missing
	Sentinel  string   `json:",omitempty"` // relRead.sentinel
	Key       int      `json:",omitempty"` // relRead.key
	EntryKey  *FactKey `json:",omitempty"` // relRead.keyFrom, keyMarks where keyKnown
}

// FactEnsure is a relEnsure: the entry at Loc, looked up by parameter
// Key-1, is created where missing in a section of Lock.
type FactEnsure struct {
	Loc  FactPath
	Key  int
	Lock FactLock
}

// toFact converts a summary; paths rooted at free variables (closures)
// have no meaning outside and are dropped.
func (s *summary) toFact() *LockSummary {
	f := &LockSummary{}
	path := func(p relPath) (FactPath, bool) {
		if p.global != nil {
			return FactPath{GlobalPkg: p.global.Pkg.Pkg.Path(), GlobalName: p.global.Name(), Steps: p.steps}, true
		}
		return FactPath{Param: p.param, Steps: p.steps}, p.param >= 0
	}
	lock := func(l relLock) (FactLock, bool) {
		p, ok := path(l.path)
		return FactLock{Path: p, Read: l.mode == Read}, ok
	}
	for _, l := range s.acquires {
		if fl, ok := lock(l); ok {
			f.Acquires = append(f.Acquires, fl)
		}
	}
	for _, w := range s.writes {
		loc, ok := path(w.loc)
		if !ok {
			continue
		}
		fw := FactWrite{Loc: loc, Kind: uint8(w.kind), Collection: w.collection, Removal: w.removal, Takes: w.takes, Swaps: w.swaps, Merges: w.merges, Empties: w.empties, TypeReqs: w.typeReqs,
			DataFrom: w.dataFrom, DataFields: w.dataFields, Key: w.key, Fixed: w.fixed, StoredParam: w.storedParam,
			EntryKey: factKey(w.keyKnown, w.keyFrom, w.keyMarks)}
		if w.lock != nil {
			l, ok := lock(*w.lock)
			if !ok {
				continue
			}
			fw.Lock = &l
		}
		for _, g := range w.guards {
			if gl, ok := path(g.loc); ok {
				fw.Guards = append(fw.Guards, FactGuard{Loc: gl, Existence: g.existence, WriteOnMissing: g.writeOnMissing, MissingCreates: g.missingCreates,
					MissingFails: g.missingFails, Against: g.against})
			}
		}
		for _, p := range w.resolved {
			if pl, ok := path(p); ok {
				fw.Resolved = append(fw.Resolved, pl)
			}
		}
		f.Writes = append(f.Writes, fw)
	}
	for _, r := range s.results {
		if r.callerLock {
			continue
		}
		loc, ok1 := path(r.loc)
		l, ok2 := lock(r.lock)
		if ok1 && ok2 {
			f.Results = append(f.Results, FactRead{Loc: loc, Lock: l, Results: r.results, Picked: r.picked,
				OrderOnly: r.orderOnly, Found: r.found, Bound: r.bound, Missing: uint8(r.missing), Sentinel: r.sentinel, Key: r.key,
				EntryKey: factKey(r.keyKnown, r.keyFrom, r.keyMarks)})
		}
	}
	for _, en := range s.ensures {
		loc, ok1 := path(en.loc)
		l, ok2 := lock(en.lock)
		if ok1 && ok2 {
			f.Ensures = append(f.Ensures, FactEnsure{Loc: loc, Key: en.key, Lock: l})
		}
	}
	for _, t := range s.takesFirst {
		if l, ok := lock(t.lock); ok {
			l.RW = t.rwmutex
			f.TakesFirst = append(f.TakesFirst, l)
		}
	}
	for _, t := range s.iterLocks {
		if l, ok := lock(t.lock); ok {
			l.RW = t.rwmutex
			f.Yields = append(f.Yields, l)
		}
	}
	for _, pl := range s.callbacks {
		fc := FactCallback{Param: pl.param}
		for _, t := range pl.locks {
			if l, ok := lock(t.lock); ok {
				l.RW = t.rwmutex
				fc.Locks = append(fc.Locks, l)
			}
		}
		if len(fc.Locks) > 0 {
			f.Callbacks = append(f.Callbacks, fc)
		}
	}
	return f
}

// DependenciesFromSource is set by the driver's in-process run, where a
// package's dependencies were type-checked from source. Under go vet they
// come from export data, which leaves out their unexported package
// variables, so a summary naming one resolves to nothing there; the
// in-process run drops those too, and gives go vet's findings.
var DependenciesFromSource bool

// fromFact converts an imported fact back, resolving package variables in
// the current SSA program (those of packages it does not know are dropped).
func (f *LockSummary) toSummary(prog *ssa.Program) *summary {
	s := &summary{}
	path := func(p FactPath) (relPath, bool) {
		if p.GlobalName == "" {
			return relPath{param: p.Param, steps: p.Steps}, true
		}
		pkg := prog.ImportedPackage(p.GlobalPkg)
		if pkg == nil || (DependenciesFromSource && !token.IsExported(p.GlobalName)) {
			return relPath{}, false
		}
		g, ok := pkg.Members[p.GlobalName].(*ssa.Global)
		return relPath{global: g, steps: p.Steps}, ok
	}
	lock := func(l FactLock) (relLock, bool) {
		p, ok := path(l.Path)
		m := Write
		if l.Read {
			m = Read
		}
		return relLock{path: p, mode: m}, ok
	}
	for _, l := range f.Acquires {
		if rl, ok := lock(l); ok {
			s.acquires = append(s.acquires, rl)
		}
	}
	for _, w := range f.Writes {
		loc, ok := path(w.Loc)
		if !ok {
			continue
		}
		rw := relWrite{loc: loc, kind: writeKind(w.Kind), collection: w.Collection, removal: w.Removal, takes: w.Takes, swaps: w.Swaps, merges: w.Merges, empties: w.Empties, typeReqs: w.TypeReqs,
			dataFrom: w.DataFrom, dataFields: w.DataFields, key: w.Key, fixed: w.Fixed, storedParam: w.StoredParam}
		rw.keyFrom, rw.keyMarks, rw.keyKnown = w.EntryKey.unpack()
		if w.Lock != nil {
			l, ok := lock(*w.Lock)
			if !ok {
				continue
			}
			rw.lock = &l
		}
		for _, g := range w.Guards {
			if gl, ok := path(g.Loc); ok {
				rw.guards = append(rw.guards, relGuard{loc: gl, existence: g.Existence, writeOnMissing: g.WriteOnMissing, missingCreates: g.MissingCreates,
					missingFails: g.MissingFails, against: g.Against})
			}
		}
		for _, p := range w.Resolved {
			if pl, ok := path(p); ok {
				rw.resolved = append(rw.resolved, pl)
			}
		}
		s.writes = append(s.writes, rw)
	}
	for _, r := range f.Results {
		loc, ok1 := path(r.Loc)
		l, ok2 := lock(r.Lock)
		if ok1 && ok2 {
			s.results = append(s.results, relRead{loc: loc, lock: l, results: r.Results, picked: r.Picked,
				orderOnly: r.OrderOnly, found: r.Found, bound: r.Bound, missing: missingWhen(r.Missing), sentinel: r.Sentinel, key: r.Key})
			rr := &s.results[len(s.results)-1]
			rr.keyFrom, rr.keyMarks, rr.keyKnown = r.EntryKey.unpack()
		}
	}
	for _, en := range f.Ensures {
		loc, ok1 := path(en.Loc)
		l, ok2 := lock(en.Lock)
		if ok1 && ok2 {
			s.ensures = append(s.ensures, relEnsure{loc: loc, key: en.Key, lock: l})
		}
	}
	for _, t := range f.TakesFirst {
		if l, ok := lock(t); ok {
			s.takesFirst = append(s.takesFirst, relLockAt{lock: l, rwmutex: t.RW})
		}
	}
	for _, t := range f.Yields {
		if l, ok := lock(t); ok {
			s.iterLocks = append(s.iterLocks, relLockAt{lock: l, rwmutex: t.RW})
		}
	}
	for _, fc := range f.Callbacks {
		pl := paramLocks{param: fc.Param}
		for _, t := range fc.Locks {
			if l, ok := lock(t); ok {
				pl.locks = append(pl.locks, relLockAt{lock: l, rwmutex: t.RW})
			}
		}
		s.callbacks = append(s.callbacks, pl)
	}
	return s
}

// importedSummary returns the summary another package exported for fn.
func (e *engine) importedSummary(fn *ssa.Function) *summary {
	obj, ok := fn.Object().(*types.Func)
	if !ok || e.pass == nil {
		return nil
	}
	if s, ok := e.imported[obj]; ok {
		return s
	}
	if s := syncMapSummary(obj); s != nil {
		e.imported[obj] = s
		return s
	}
	var f LockSummary
	var s *summary
	if e.pass.ImportObjectFact(obj, &f) {
		s = f.toSummary(e.pkg.Prog)
	}
	e.imported[obj] = s
	return s
}

// factsInUse reports whether the package calls a function of another
// package that exported a lock summary: then it is worth analysing even if
// it never refers to package sync itself.
func (e *engine) factsInUse() bool {
	for _, obj := range e.pass.TypesInfo.Uses {
		fn, ok := obj.(*types.Func)
		if !ok || fn.Pkg() == nil || fn.Pkg() == e.pass.Pkg {
			continue
		}
		fn = fn.Origin() // a generic function's fact is its origin's
		var f LockSummary
		if e.pass.ImportObjectFact(fn, &f) {
			return true
		}
	}
	return false
}

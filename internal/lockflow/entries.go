package lockflow

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// Calling context from other packages. A registry's Register, checked in
// one section and filled in a second, cannot be raced when every call of
// it runs during package initialisation (the plugins' init functions);
// but those calls are in the packages that import the registry, which
// its own analysis never sees. Facts flow only from a package to its
// dependents, so the question is settled by the standalone driver, which
// sees every package of the module:
//
//   - the package of the gap, when the gap's function runs only at
//     initialisation or through some exported functions (its entries),
//     reports the gap with the entries as its condition and marks each
//     entry with an InitEntry fact;
//   - a package calling a marked entry records, per call, whether it runs
//     only during its own initialisation; any other use of the entry (a
//     call at run time, a function value) counts against it;
//   - the driver drops the gap when every package of the module that
//     imports the gap's package was analysed, at least one call was seen
//     and every call runs at initialisation.
//
// go vet -vettool and the in-process checker see one package at a time
// and report such gaps as before. ModuleContext is set for the driver's
// runs.
var ModuleContext bool

// ThisModule is the module of the package analysed, when the driver says
// (go vet's config names it). Entries are marked, and their calls
// recorded, only within one module: the driver settles nothing across
// modules.
var ThisModule string

// thisModule is the module of the package analysed, in the driver's runs:
// ThisModule when go vet's config named it, else the pass's (the
// driver's in-process runs analyse many modules' packages at once).
func (e *engine) thisModule() string {
	if ThisModule != "" || !ModuleContext || e.pass == nil || e.pass.Module == nil {
		return ThisModule
	}
	return e.pass.Module.Path
}

// InitEntry marks an exported function through which, alone, a gap of its
// package can run outside package initialisation: the gap is reported
// unless every caller in the module runs at initialisation.
type InitEntry struct {
	Module string
}

func (*InitEntry) AFact()         {}
func (*InitEntry) String() string { return "init entry" }

// EntryCall is one use, in this package, of another package's entry
// function (an init, fresh or locked entry).
type EntryCall struct {
	Pos   token.Pos
	Entry string // the function's types.Func.FullName
	// View is the condition the record answers (InitView, FreshView or
	// LockedView): a function marked for two conditions gets a record
	// for each, and a use good for one may count against the other.
	View string
	// Good: the use is of the kind View needs (a static call at
	// initialisation, a call on an object the caller just made, a call
	// made with a lock held).
	Good bool
}

// recorded reports whether a use of entry of this view and kind is
// already recorded: one record per entry, view and kind is all the driver
// counts.
func (e *engine) recorded(entry, view string, good bool) bool {
	return slices.ContainsFunc(e.res.EntryCalls, func(c EntryCall) bool {
		return c.Entry == entry && c.View == view && c.Good == good
	})
}

// The conditions an entry call answers (EntryCall.View).
const (
	InitView   = "init"
	FreshView  = "fresh"
	LockedView = "locked"
)

// Category values of the diagnostics the driver reads and removes: a gap
// reported with entries as its condition, and an entry call.
const (
	UnlessInitCategory   = "lockgap-unless-init-entries"
	UnlessFreshCategory  = "lockgap-unless-fresh-entries"
	UnlessLockedCategory = "lockgap-unless-locked-entries"
	EntryCallCategory    = "lockgap-entry-call"
)

// initEntries returns the exported package-level functions through which
// fn can run, other than during package initialisation, and whether those
// are all the ways: fn is never used as a value or started as a goroutine,
// nor is any function between it and the entries.
func (e *engine) initEntries(fn *ssa.Function) ([]*types.Func, bool) {
	var entries []*types.Func
	seen := make(map[*ssa.Function]bool)
	var walk func(fn *ssa.Function) bool
	walk = func(fn *ssa.Function) bool {
		if seen[fn] || isInitFunc(e.pkg, fn) {
			return true
		}
		seen[fn] = true
		if e.escapes[fn] || len(e.started[fn]) > 0 || inTestFile(fn) {
			return false
		}
		obj, _ := fn.Object().(*types.Func)
		exported := obj != nil && obj.Exported()
		if exported {
			if fn.Signature.Recv() != nil || fn.Parent() != nil {
				return false // a method can be called through an interface
			}
			entries = append(entries, obj)
		} else if len(e.calls[fn]) == 0 {
			return false
		}
		for _, c := range e.calls[fn] {
			if !walk(c.caller) {
				return false
			}
		}
		return true
	}
	if !walk(fn) {
		return nil, false
	}
	return entries, true
}

// markInitEntries gives each surviving gap that runs only at
// initialisation or through exported entries its condition, and marks
// the entries.
func (e *engine) markInitEntries() {
	if !ModuleContext || e.thisModule() == "" || e.pass == nil {
		return
	}
	if e.initGoroutines == nil {
		started := e.initStartsGoroutine()
		e.initGoroutines = &started
	}
	if *e.initGoroutines {
		return
	}
	for _, g := range e.res.Gaps {
		entries, ok := e.initEntries(g.Fn)
		if !ok || len(entries) == 0 {
			continue
		}
		for _, obj := range entries {
			g.InitEntries = append(g.InitEntries, obj.FullName())
			e.pass.ExportObjectFact(obj, &InitEntry{Module: e.thisModule()})
		}
		slices.Sort(g.InitEntries)
		g.InitEntries = slices.Compact(g.InitEntries)
	}
}

// usesInitEntries reports whether the package refers to a function of
// another package marked as an init entry.
func (e *engine) usesInitEntries() bool {
	for _, obj := range e.pass.TypesInfo.Uses {
		if e.initEntry(obj) {
			return true
		}
	}
	return false
}

func (e *engine) initEntry(obj types.Object) bool {
	fn, ok := obj.(*types.Func)
	if !ok || fn.Pkg() == nil || fn.Pkg() == e.pass.Pkg || e.thisModule() == "" {
		return false
	}
	var f InitEntry
	return e.pass.ImportObjectFact(fn, &f) && f.Module == e.thisModule()
}

// recordEntryCalls lists the package's uses of other packages' init
// entries, one per entry and kind of use. Test files are left out, as they are from the package's own
// call structure: the contract is what the program does.
func (e *engine) recordEntryCalls(funcs []*ssa.Function) {
	var ops []*ssa.Value
	for _, fn := range funcs {
		if inTestFile(fn) {
			continue
		}
		atInit := e.onlyAtInit(fn)
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				var callee *ssa.Function
				if c, ok := instr.(*ssa.Call); ok {
					callee = c.Call.StaticCallee()
				}
				ops = instr.Operands(ops[:0])
				for i, o := range ops {
					f, ok := (*o).(*ssa.Function)
					if !ok || f.Object() == nil || !e.initEntry(f.Object()) {
						continue
					}
					call := i == 0 && f == callee
					pos := instr.Pos()
					if !pos.IsValid() {
						pos = fn.Pos()
					}
					if !pos.IsValid() && len(e.pass.Files) > 0 {
						pos = e.pass.Files[0].Package
					}
					c := EntryCall{Pos: pos, Entry: f.Object().(*types.Func).FullName(), View: InitView, Good: call && atInit}
					if !e.recorded(c.Entry, c.View, c.Good) {
						e.res.EntryCalls = append(e.res.EntryCalls, c) // the driver counts kinds of use, not calls
					}
				}
			}
		}
	}
}

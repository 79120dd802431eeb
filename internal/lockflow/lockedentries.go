package lockflow

import (
	"fmt"
	"go/types"
	"maps"
	"os"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// Outer locks held by callers in other packages. A gap in a function
// that every call in its package makes with some lock held cannot be
// raced (onlyCalledLocked): the outer lock, a per-key lock say,
// serialises the sections. When the function is exported, or runs
// through exported ones, the calls that matter are in the packages that
// depend on it, which its own analysis never sees. As for init and fresh
// entries, the driver settles it over the module:
//
//   - the package of the gap, when the gap's function runs, outside calls
//     made with a lock held, only through some exported functions or
//     methods (its entries), reached by nothing else (no function value,
//     goroutine, interface or generic body), reports the gap with the
//     entries as its condition and marks each with a LockedEntry fact;
//   - every package depending on a marked function's package records
//     whether it calls it only with a lock held ("locked": at the call,
//     or in a function its package only calls so) or uses it some other
//     way ("other");
//   - the driver drops the gap when every package of the module that
//     depends on the gap's package, directly or not, was analysed, at
//     least one locked call was seen and no other use.
//
// Callers outside the module are not seen: the module is taken to be the
// program, as for the other entries.

// LockedEntry marks an exported function whose package's gap is reported
// unless every use of it in the module is a call made with a lock held.
type LockedEntry struct {
	Module string
}

func (*LockedEntry) AFact()         {}
func (*LockedEntry) String() string { return "locked entry" }

// lockedEntries returns the exported functions and methods through which
// fn can run other than from a call made with a lock held, and the
// functions of the package whose every call is thereby accounted for;
// ok is false when some other way in exists (a function value, a
// goroutine, a test file, an unexported function no one calls).
func (e *engine) lockedEntries(fn *ssa.Function) (entries []*types.Func, walked map[*ssa.Function]bool, ok bool) {
	walked = make(map[*ssa.Function]bool)
	var walk func(fn *ssa.Function) bool
	walk = func(fn *ssa.Function) bool {
		if walked[fn] {
			return true
		}
		walked[fn] = true
		if e.escapes[fn] || len(e.started[fn]) > 0 || inTestFile(fn) || fn.Parent() != nil {
			if debugEnabled {
				fmt.Fprintf(os.Stderr, "  locked entries: %s is another way in (escapes=%v started=%d)\n", fn, e.escapes[fn], len(e.started[fn]))
			}
			return false
		}
		obj, _ := fn.Object().(*types.Func)
		if obj != nil && obj.Exported() && !e.hiddenMethod(fn) {
			if obj.Origin() != obj {
				return false
			}
			entries = append(entries, obj)
		} else if len(e.calls[fn]) == 0 {
			if debugEnabled {
				fmt.Fprintf(os.Stderr, "  locked entries: %s is called by no one\n", fn)
			}
			return false
		}
		for _, c := range e.calls[fn] {
			if !e.lockedCalls[c.instr] && !walk(c.caller) {
				if debugEnabled {
					fmt.Fprintf(os.Stderr, "  locked entries: %s calls %s unlocked at %s\n", c.caller, fn, e.pass.Fset.Position(c.instr.Pos()))
				}
				return false
			}
		}
		return true
	}
	if !walk(fn) {
		return nil, nil, false
	}
	return entries, walked, true
}

// markLockedEntries gives each surviving gap that runs, outside locked
// calls, only through exported entries those entries as its condition,
// and marks them.
func (e *engine) markLockedEntries() {
	if !ModuleContext || e.thisModule() == "" || e.pass == nil {
		return
	}
	for _, g := range e.res.Gaps {
		if len(g.InitEntries) > 0 || len(g.FreshEntries) > 0 {
			continue
		}
		entries, walked, ok := e.lockedEntries(g.Fn)
		// The other writers of the state must keep to a lock too: their
		// ways in are entries as well.
		for _, w := range e.uncoveredWriters(g) {
			if !ok {
				break
			}
			var more []*types.Func
			var also map[*ssa.Function]bool
			more, also, ok = e.lockedEntries(w)
			for _, obj := range more {
				if !slices.Contains(entries, obj) {
					entries = append(entries, obj)
				}
			}
			maps.Copy(walked, also)
		}
		if !ok || len(entries) == 0 {
			continue
		}
		index := make(map[*types.Func]int, len(entries))
		for _, obj := range entries {
			index[obj] = 0
		}
		// The package's own calls are accounted for by the walk; what is
		// left to find here is a reach through an interface or a generic
		// body.
		_, other := e.entryUses(e.funcs, index, func(call *ssa.Call, caller *ssa.Function, _ int) bool {
			return e.lockedCall(call, caller) || walked[caller]
		})
		if len(other) > 0 {
			continue
		}
		// Only calls made with a lock held count as seen: a call from
		// another entry proves nothing by itself.
		locked, _ := e.entryUses(e.funcs, index, func(call *ssa.Call, caller *ssa.Function, _ int) bool {
			return e.lockedCall(call, caller)
		})
		for _, obj := range entries {
			name := obj.FullName()
			g.LockedEntries = append(g.LockedEntries, name)
			e.pass.ExportObjectFact(obj, &LockedEntry{Module: e.thisModule()})
			pos, used := locked[obj]
			if used && e.noLockedRecord(name) {
				e.res.EntryCalls = append(e.res.EntryCalls, EntryCall{Pos: e.validPos(pos, g.Fn), Entry: name, Locked: true})
			}
		}
		slices.Sort(g.LockedEntries)
		g.LockedEntries = slices.Compact(g.LockedEntries)
	}
}

// lockedCall reports whether call is made with a lock held, there or in
// every call of the function making it.
func (e *engine) lockedCall(call *ssa.Call, caller *ssa.Function) bool {
	return e.lockedCalls[call] || e.onlyCalledLocked(caller)
}

// noLockedRecord reports whether no locked call of entry has been recorded
// yet: one record per entry and kind of use is all the driver counts.
func (e *engine) noLockedRecord(entry string) bool {
	return !slices.ContainsFunc(e.res.EntryCalls, func(c EntryCall) bool { return c.Entry == entry && c.Locked })
}

// depLockedEntries returns the functions of the package's dependencies,
// in this module, marked as locked entries.
func (e *engine) depLockedEntries() map[*types.Func]int {
	e.loadDepEntries()
	return e.lockedDeps
}

// usesLockedEntries reports whether some dependency of the package in the
// module marked a locked entry.
func (e *engine) usesLockedEntries() bool { return len(e.depLockedEntries()) > 0 }

// recordLockedCalls lists the package's uses of other packages' locked
// entries, one record per entry and kind of use. A package that takes no
// lock makes no locked call: every use it makes counts against.
func (e *engine) recordLockedCalls(funcs []*ssa.Function) {
	entries := e.depLockedEntries()
	if len(entries) == 0 {
		return
	}
	locked, other := e.entryUses(funcs, entries, func(call *ssa.Call, caller *ssa.Function, _ int) bool {
		return e.lockedCall(call, caller)
	})
	e.recordUses(entries, locked, other, EntryCall{Locked: true})
}

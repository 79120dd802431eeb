package lockflow

import (
	"fmt"
	"go/types"
	"maps"
	"os"
	"slices"
	"strings"

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
//
// A method reached through an interface counts those calls as its own:
// in its package, an interface call that may land in it (same name, a
// receiver type implementing the interface) is followed like a static
// call; in the packages depending on it, each such call is recorded as
// locked or not. Converting the type to an interface is then no use by
// itself, but only when the method's signature names a type of the
// module: no interface declared outside the module can include it, so
// every call through one is made in the module, where the driver sees it.
// A method value of such an interface still counts against.
//
// A reader holding its read lock while a helper takes it again hangs
// only if a writer's Lock comes in between. When the reader's function
// and every function taking the write lock run only under some other
// lock (the package's own calls, or, for exported ones, the module's),
// the reentry is dropped, or given the same condition.

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
		// An interface call of the package that may land in the method
		// is a call of it too.
		for _, c := range e.dispatchingTo(fn) {
			if !e.lockedCalls[c] && !walk(c.Parent()) {
				if debugEnabled {
					fmt.Fprintf(os.Stderr, "  locked entries: %s may call %s through an interface unlocked at %s\n", c.Parent(), fn, e.pass.Fset.Position(c.Pos()))
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
// and marks them. A reader taking its read lock again is given the same
// condition over its own function and the functions taking the write
// lock: the hang needs a writer between the two RLocks, which an outer
// lock held around every one of them keeps out. When the package's own
// calls account for all of them, the reentry is dropped here. A gap with
// fresh entries gets this condition too: either one drops it (a method
// called under the caller's lock on the shared object, and on new ones
// while they are filled).
func (e *engine) markLockedEntries() {
	if ModuleContext {
		for _, g := range e.res.Gaps {
			if len(g.InitEntries) > 0 {
				continue
			}
			// The other writers of the state must keep to a lock too:
			// their ways in are entries as well.
			g.LockedEntries, _ = e.lockedCondition(append([]*ssa.Function{g.Fn}, e.uncoveredWriters(g)...))
		}
	}
	kept := e.res.Reentries[:0]
	for _, r := range e.res.Reentries {
		if r.HeldMode == Read && r.TakenMode == Read && r.Runner == RunnerNone {
			e.writeLocked(r.lock) // fills writeLockers
			fns := []*ssa.Function{r.Fn}
			for _, w := range e.writeLockers[lockClass(r.lock)] {
				if !e.neverRuns(w) {
					fns = append(fns, w)
				}
			}
			names, ok := e.lockedCondition(fns)
			if debugEnabled {
				fmt.Fprintf(os.Stderr, "reentry %s: locked entries %v ok=%v\n", r.Fn, names, ok)
			}
			if ok && len(names) == 0 {
				continue // every run of them in the package holds a lock
			}
			r.LockedEntries = names
		}
		kept = append(kept, r)
	}
	e.res.Reentries = kept
}

// lockedCondition returns the exported entries through which fns run
// outside calls made with a lock held, marking each with a LockedEntry
// fact and recording the package's own locked calls of them; ok is false
// when fns can run some other way (a function value, a goroutine, an
// interface). Outside the driver's module context it finds no entries,
// but still says whether the package's own calls account for every run.
func (e *engine) lockedCondition(fns []*ssa.Function) (names []string, ok bool) {
	var entries []*types.Func
	walked := map[*ssa.Function]bool{}
	for _, fn := range fns {
		more, also, fnOK := e.lockedEntries(fn)
		if !fnOK {
			return nil, false
		}
		for _, obj := range more {
			if !slices.Contains(entries, obj) {
				entries = append(entries, obj)
			}
		}
		maps.Copy(walked, also)
	}
	if len(entries) == 0 {
		return nil, true
	}
	if !ModuleContext || e.thisModule() == "" || e.pass == nil {
		return nil, false
	}
	index := make(map[*types.Func]int, len(entries))
	for _, obj := range entries {
		index[obj] = 0
	}
	// The package's own calls are accounted for by the walk; what is
	// left to find here is a reach through an interface or a generic
	// body.
	_, other := e.entryUses(e.funcs, index, true, func(call *ssa.Call, caller *ssa.Function, _ int) bool {
		return e.lockedOrFresh(call, caller) || walked[caller]
	})
	if len(other) > 0 {
		return nil, false
	}
	// Only calls made with a lock held count as seen: a call from
	// another entry proves nothing by itself.
	locked, _ := e.entryUses(e.funcs, index, true, func(call *ssa.Call, caller *ssa.Function, _ int) bool {
		return e.lockedOrFresh(call, caller)
	})
	for _, obj := range entries {
		name := obj.FullName()
		names = append(names, name)
		e.pass.ExportObjectFact(obj, &LockedEntry{Module: e.thisModule()})
		pos, used := locked[obj]
		if used && !e.recorded(name, LockedView, true) {
			e.res.EntryCalls = append(e.res.EntryCalls, EntryCall{Pos: e.validPos(pos, fns[0]), Entry: name, View: LockedView, Good: true})
		}
	}
	slices.Sort(names)
	return slices.Compact(names), true
}

// lockedCall reports whether call is made with a lock held, there or in
// every call of the function making it.
func (e *engine) lockedCall(call *ssa.Call, caller *ssa.Function) bool {
	return e.lockedCalls[call] || e.onlyCalledLocked(caller)
}

// lockedOrFresh reports whether call, in caller, cannot run beside another
// goroutine's sections on an object shared with it: it is made with a
// lock held, or it calls a method on an object the caller has just made
// and shown no one (a collection filled before it is published).
func (e *engine) lockedOrFresh(call *ssa.Call, caller *ssa.Function) bool {
	if e.lockedCall(call, caller) {
		return true
	}
	c := call.Common()
	callee := c.StaticCallee()
	if c.IsInvoke() || callee == nil || callee.Signature.Recv() == nil || len(c.Args) == 0 {
		return false
	}
	return e.freshArg(c.Args[0], caller, call)
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
	locked, other := e.entryUses(funcs, entries, true, func(call *ssa.Call, caller *ssa.Function, _ int) bool {
		return e.lockedOrFresh(call, caller)
	})
	e.recordUses(entries, locked, other, LockedView)
}

// dispatchingTo returns the package's interface calls (test files aside)
// that may land in the method fn: calls of a method of its name on an
// interface (or a type parameter's constraint) its receiver type
// implements.
func (e *engine) dispatchingTo(fn *ssa.Function) []ssa.CallInstruction {
	obj, ok := fn.Object().(*types.Func)
	if !ok || fn.Parent() != nil || fn.Signature.Recv() == nil {
		return nil
	}
	if e.invokeSites == nil {
		e.invokeSites = map[string][]ssa.CallInstruction{}
		for _, f := range e.funcs {
			if inTestFile(f) {
				continue
			}
			for _, b := range f.Blocks {
				for _, instr := range b.Instrs {
					if c, ok := instr.(ssa.CallInstruction); ok && c.Common().IsInvoke() {
						name := c.Common().Method.Name()
						e.invokeSites[name] = append(e.invokeSites[name], c)
					}
				}
			}
		}
	}
	var out []ssa.CallInstruction
	for _, c := range e.invokeSites[obj.Name()] {
		if mayDispatchTo(c.Common(), obj) {
			out = append(out, c)
		}
	}
	return out
}

// mayDispatchTo reports whether the interface call c may run the method
// m (see landsIn).
func mayDispatchTo(c *ssa.CallCommon, m *types.Func) bool {
	return c.Method != nil && landsIn(c.Method, c.Value.Type(), m)
}

// landsIn reports whether calling the method called of a value of type
// iface, an interface (or a type parameter), may run the method m: it
// has m's name, and m's receiver type, or a pointer to it, implements
// iface.
func landsIn(called *types.Func, iface types.Type, m *types.Func) bool {
	if called.Name() != m.Name() || m.Signature().Recv() == nil {
		return false
	}
	it, ok := iface.Underlying().(*types.Interface)
	if !ok {
		return false
	}
	recv := m.Signature().Recv().Type()
	if types.Implements(recv, it) {
		return true
	}
	_, isPtr := recv.(*types.Pointer)
	return !isPtr && types.Implements(types.NewPointer(recv), it)
}

// privateInterface reports whether t is an interface type the package
// declares unexported (a collection's windowAverager): the package
// converts its values to it to call them itself, and those calls are
// counted where they are made, as any interface call in the module is.
func (e *engine) privateInterface(t types.Type) bool {
	named, ok := types.Unalias(t).(*types.Named)
	if !ok || !types.IsInterface(named) || e.pass == nil {
		return false
	}
	obj := named.Obj()
	return !obj.Exported() && obj.Pkg() == e.pass.Pkg
}

// moduleBound reports whether the signature of m names a type declared
// in module mod: no interface declared outside the module can then
// include m, so a call through an interface that may land in m is made
// in a package of the module, where the driver sees it.
func moduleBound(m *types.Func, mod string) bool {
	inModule := func(t types.Type) bool {
		found := false
		var visit func(t types.Type, depth int)
		visit = func(t types.Type, depth int) {
			if found || depth > 8 {
				return
			}
			switch t := types.Unalias(t).(type) {
			case *types.Named:
				if pkg := t.Obj().Pkg(); pkg != nil && (pkg.Path() == mod || strings.HasPrefix(pkg.Path(), mod+"/")) {
					found = true
					return
				}
				if args := t.TypeArgs(); args != nil {
					for i := 0; i < args.Len(); i++ {
						visit(args.At(i), depth+1)
					}
				}
			case *types.Pointer:
				visit(t.Elem(), depth+1)
			case *types.Slice:
				visit(t.Elem(), depth+1)
			case *types.Array:
				visit(t.Elem(), depth+1)
			case *types.Map:
				visit(t.Key(), depth+1)
				visit(t.Elem(), depth+1)
			case *types.Chan:
				visit(t.Elem(), depth+1)
			}
		}
		visit(t, 0)
		return found
	}
	sig := m.Signature()
	for _, tuple := range []*types.Tuple{sig.Params(), sig.Results()} {
		for i := 0; i < tuple.Len(); i++ {
			if inModule(tuple.At(i).Type()) {
				return true
			}
		}
	}
	return false
}

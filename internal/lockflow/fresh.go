package lockflow

import (
	"fmt"
	"go/token"
	"go/types"
	"os"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// Objects no one else has seen, across packages. A method whose sections
// lock its receiver cannot be raced through an object its caller has just
// made and shown no one (construction, callctx.go); when the method is
// exported, its callers are also in the packages that depend on its
// package, which its own analysis never sees. As for init entries, the
// driver settles it over the module:
//
//   - the package of the gap, when every use of the exported function in
//     the package (tests aside, as in its own call structure) is a static
//     call handing it as that argument an object the caller has just
//     allocated or got from a constructor (in a loop too, when nothing in
//     the loop shows it to anyone before the next call), and nothing
//     can reach it another way (no method value, goroutine, defer,
//     conversion to an interface of a type whose method set has it,
//     generic instantiation with such a type), reports the gap with the
//     function as its condition and marks it with a FreshEntry fact;
//     exported constructors get a FreshResult fact;
//   - every package depending on a marked function's package records
//     whether it uses the function only that way ("fresh") or some other
//     way ("other");
//   - the driver drops the gap when every package of the module that
//     depends on the gap's package, directly or not, was analysed, at
//     least one fresh call was seen and no other use.
//
// Callers outside the module are not seen: the module is taken to be the
// program, as for init entries.

// FreshEntry marks an exported function whose gap is reported unless
// every use of it in the module hands argument Arg an object its caller
// has just made.
type FreshEntry struct {
	Module string
	Arg    int
}

func (*FreshEntry) AFact()         {}
func (*FreshEntry) String() string { return "fresh entry" }

// freshUses counts, over the package's functions (test files aside), the
// uses of the functions in entries (by origin, with the argument that must
// be fresh): calls on a fresh object, and any other use.
func (e *engine) freshUses(funcs []*ssa.Function, entries map[*types.Func]int) (fresh, other map[*types.Func]token.Pos) {
	return e.entryUses(funcs, entries, false, func(call *ssa.Call, caller *ssa.Function, arg int) bool {
		return arg < len(call.Call.Args) && e.freshArg(call.Call.Args[arg], caller, call)
	})
}

// entryUses sorts, over funcs (test files aside), the uses of the
// functions in entries (by origin, each with an argument index for good):
// static calls of the function itself that good accepts, and any other
// use, a reach through an interface or a generic body included. With
// dispatch, an interface call that may land in a method of entries is a
// call of it, accepted or not by good, and converting the method's type
// to an interface is no use by itself when the method's signature names
// a type of the module (moduleBound): every call through an interface
// is then in the module.
func (e *engine) entryUses(funcs []*ssa.Function, entries map[*types.Func]int, dispatch bool, good func(call *ssa.Call, caller *ssa.Function, arg int) bool) (accepted, other map[*types.Func]token.Pos) {
	accepted, other = map[*types.Func]token.Pos{}, map[*types.Func]token.Pos{}
	// note keeps the first position of each kind of use.
	note := func(m map[*types.Func]token.Pos, f *types.Func, pos token.Pos) {
		if _, ok := m[f]; !ok || !m[f].IsValid() {
			m[f] = pos
		}
	}
	entryOf := func(obj types.Object) (*types.Func, bool) {
		f, ok := obj.(*types.Func)
		if !ok {
			return nil, false
		}
		_, ok = entries[f.Origin()]
		return f.Origin(), ok
	}
	// A type that has the method in its method set lets an interface
	// call, or a generic function's body, reach it.
	reaches := func(t types.Type, orPointer bool, converted types.Type, pos token.Pos) {
		typs := []types.Type{t}
		if _, isPtr := t.(*types.Pointer); orPointer && !isPtr {
			typs = append(typs, types.NewPointer(t))
		}
		for _, typ := range typs {
			ms := types.NewMethodSet(typ)
			for i := 0; i < ms.Len(); i++ {
				if f, ok := entryOf(ms.At(i).Obj()); ok {
					if converted != nil && dispatch && (moduleBound(f, e.thisModule()) || e.privateInterface(converted)) {
						continue // its interface calls are counted below
					}
					if debugEnabled {
						fmt.Fprintf(os.Stderr, "entry %s reachable through %s\n", f, typ)
					}
					note(other, f, pos)
				}
			}
		}
	}
	var ops []*ssa.Value
	for _, fn := range funcs {
		if inTestFile(fn) {
			continue
		}
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if mi, ok := instr.(*ssa.MakeInterface); ok {
					reaches(mi.X.Type(), false, mi.Type(), mi.Pos())
				}
				if c, ok := instr.(ssa.CallInstruction); ok && dispatch && c.Common().IsInvoke() {
					for obj, arg := range entries {
						if !mayDispatchTo(c.Common(), obj) {
							continue
						}
						if call, isCall := c.(*ssa.Call); isCall && good(call, fn, arg) {
							note(accepted, obj, c.Pos())
						} else {
							note(other, obj, c.Pos())
						}
					}
				}
				ops = instr.Operands(ops[:0])
				for i, o := range ops {
					f, ok := (*o).(*ssa.Function)
					if !ok || f.Object() == nil {
						continue
					}
					if m, isMethod := f.Object().(*types.Func); dispatch && isMethod && m.Signature().Recv() != nil && types.IsInterface(m.Signature().Recv().Type()) {
						// A method value or expression of an interface.
						for obj := range entries {
							if landsIn(m, m.Signature().Recv().Type(), obj) {
								note(other, obj, instr.Pos())
							}
						}
						continue
					}
					obj, ok := entryOf(f.Object())
					if !ok {
						continue
					}
					call, isCall := instr.(*ssa.Call)
					if isCall && i == 0 && call.Call.Value == f && !wrapper(f) && good(call, fn, entries[obj]) {
						note(accepted, obj, instr.Pos())
					} else {
						if debugEnabled {
							fmt.Fprintf(os.Stderr, "entry %s used otherwise in %s: %s\n", obj, fn, instr)
						}
						note(other, obj, instr.Pos())
					}
				}
			}
		}
	}
	if e.pass != nil {
		for id, inst := range e.pass.TypesInfo.Instances {
			if strings.HasSuffix(e.pass.Fset.Position(id.Pos()).Filename, "_test.go") {
				continue
			}
			for i := 0; i < inst.TypeArgs.Len(); i++ {
				reaches(inst.TypeArgs.At(i), true, nil, id.Pos())
			}
		}
	}
	return accepted, other
}

// markFreshEntries gives each surviving gap whose lock belongs to an
// argument of an exported function, which every use in the package hands
// an object it has just made, that function as its condition; it marks
// the function, and the package's exported constructors.
func (e *engine) markFreshEntries() {
	if e.pass == nil {
		return
	}
	// Constructors are marked in every mode: a package using one also
	// knows what it made (a set for one loop of its own, unsharedLocal).
	for _, fn := range e.funcs {
		// A method too: called statically, it hands back a new object
		// as a function would (a definition's Reachability()).
		obj, ok := fn.Object().(*types.Func)
		if ok && obj.Exported() && fn.Parent() == nil && !inTestFile(fn) && constructor(fn) {
			e.pass.ExportObjectFact(obj, &FreshResult{})
		}
	}
	if !ModuleContext || e.thisModule() == "" {
		return
	}
	marked := map[*types.Func]int{} // the argument each entry is marked with
	for _, g := range e.res.Gaps {
		if len(g.InitEntries) > 0 {
			continue
		}
		p, ok := g.Lock.Root.(*ssa.Parameter)
		if !ok || p.Parent() != g.Fn {
			continue
		}
		entries, ok := e.freshEntryChain(g.Fn, paramIndex(g.Fn, p))
		if !ok || len(entries) == 0 {
			continue
		}
		fresh, other := e.freshUses(e.funcs, entries)
		clash := false
		for obj, i := range entries {
			j, seen := marked[obj]
			_, used := other[obj]
			clash = clash || used || seen && j != i // one Arg per fact
		}
		if clash {
			continue
		}
		for obj, i := range entries {
			marked[obj] = i
			g.FreshEntries = append(g.FreshEntries, obj.FullName())
			e.pass.ExportObjectFact(obj, &FreshEntry{Module: e.thisModule(), Arg: i})
			if pos, used := fresh[obj]; used && !e.recorded(obj.FullName(), FreshView, true) {
				e.res.EntryCalls = append(e.res.EntryCalls, EntryCall{Pos: e.validPos(pos, g.Fn), Entry: obj.FullName(), View: FreshView, Good: true})
			}
		}
		slices.Sort(g.FreshEntries)
	}
}

// freshEntryChain returns the exported functions through which alone fn
// runs with argument i an object it may share (each with the index of
// its argument holding that object), when there are such: fn itself, if
// exported, or the exported functions whose calls hand the object down
// to it, every other call in the package handing it a new one. Each
// keeps the object to itself and starts no goroutine; none of the chain
// is used as a value, started or called through an interface. ok is
// false when fn can run on an object some other way.
func (e *engine) freshEntryChain(fn *ssa.Function, i int) (entries map[*types.Func]int, ok bool) {
	entries = map[*types.Func]int{}
	seen := map[*ssa.Function]int{}
	var walk func(fn *ssa.Function, i int, depth int) bool
	walk = func(fn *ssa.Function, i int, depth int) bool {
		if j, done := seen[fn]; done {
			return j == i
		}
		seen[fn] = i
		if i < 0 || depth > 4 || fn.Parent() != nil || inTestFile(fn) || e.escapes[fn] || len(e.started[fn]) > 0 || len(e.dispatchingTo(fn)) > 0 {
			return false
		}
		if obj, isFunc := fn.Object().(*types.Func); isFunc && obj.Exported() {
			local := !startsGoroutine(fn) && staysLocal(fn.Params[i], 0)
			if debugEnabled {
				fmt.Fprintf(os.Stderr, "fresh entry? %s arg %d: keeps it local, starting no goroutine: %v\n", fn, i, local)
			}
			if !local || obj.Origin() != obj {
				return false
			}
			entries[obj] = i
			return true
		}
		if len(e.calls[fn]) == 0 {
			return false
		}
		for _, c := range e.calls[fn] {
			call, isCall := c.instr.(*ssa.Call)
			if !isCall || c.callback || i >= len(call.Call.Args) {
				return false
			}
			arg := call.Call.Args[i]
			if e.freshArg(arg, c.caller, c.instr) {
				continue
			}
			p, isParam := arg.(*ssa.Parameter)
			if !isParam || p.Parent() != c.caller || !walk(c.caller, paramIndex(c.caller, p), depth+1) {
				return false
			}
		}
		return true
	}
	return entries, walk(fn, i, 0)
}

// freshEntries returns the functions of the package's dependencies, in
// this module, marked as fresh entries.
func (e *engine) freshEntries() map[*types.Func]int {
	e.loadDepEntries()
	return e.fresh
}

// loadDepEntries reads, once per package, the fresh and locked entries
// its dependencies in this module marked.
func (e *engine) loadDepEntries() {
	if e.fresh != nil {
		return
	}
	e.fresh, e.lockedDeps = map[*types.Func]int{}, map[*types.Func]int{}
	if e.thisModule() == "" || e.pass == nil {
		return
	}
	for _, f := range e.pass.AllObjectFacts() {
		obj, isFunc := f.Object.(*types.Func)
		if !isFunc || obj.Pkg() == e.pass.Pkg {
			continue
		}
		switch fact := f.Fact.(type) {
		case *FreshEntry:
			if fact.Module == e.thisModule() {
				e.fresh[obj] = fact.Arg
			}
		case *LockedEntry:
			if fact.Module == e.thisModule() {
				e.lockedDeps[obj] = 0
			}
		}
	}
}

// usesFreshEntries reports whether some dependency of the package in the
// module marked a fresh entry: the package may call it or reach it
// without naming its package.
func (e *engine) usesFreshEntries() bool { return len(e.freshEntries()) > 0 }

// recordFreshCalls lists the package's uses of other packages' fresh
// entries, one record per entry and kind of use.
func (e *engine) recordFreshCalls(funcs []*ssa.Function) {
	entries := e.freshEntries()
	if len(entries) == 0 {
		return
	}
	fresh, other := e.freshUses(funcs, entries)
	e.recordUses(entries, fresh, other, FreshView)
}

// recordUses adds, for each entry, a record of its first use good for the
// condition view names and of its first other use, in the order of their
// names.
func (e *engine) recordUses(entries map[*types.Func]int, good, other map[*types.Func]token.Pos, view string) {
	var calls []EntryCall
	for obj := range entries {
		if pos, used := good[obj]; used {
			calls = append(calls, EntryCall{Pos: e.validPos(pos, nil), Entry: obj.FullName(), View: view, Good: true})
		}
		if pos, used := other[obj]; used {
			calls = append(calls, EntryCall{Pos: e.validPos(pos, nil), Entry: obj.FullName(), View: view})
		}
	}
	slices.SortFunc(calls, func(a, b EntryCall) int { return strings.Compare(a.Entry, b.Entry) })
	e.res.EntryCalls = append(e.res.EntryCalls, calls...)
}

// validPos returns pos, or failing that fn's position or the package
// clause's: a record of a use needs a position to be reported at.
func (e *engine) validPos(pos token.Pos, fn *ssa.Function) token.Pos {
	if !pos.IsValid() && fn != nil {
		pos = fn.Pos()
	}
	if !pos.IsValid() && len(e.pass.Files) > 0 {
		pos = e.pass.Files[0].Package
	}
	return pos
}

// wrapper reports whether fn is a wrapper go/ssa made for a method (for a
// promoted or indirect receiver, a method value or a method expression),
// not the method itself (declared here or known from type information).
func wrapper(fn *ssa.Function) bool {
	return strings.Contains(fn.Synthetic, "wrapper") || strings.Contains(fn.Synthetic, "thunk")
}

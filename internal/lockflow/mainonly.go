package lockflow

import "golang.org/x/tools/go/ssa"

// A program that runs on one goroutine: a package main none of whose
// functions starts a goroutine (a go statement, a group's Go,
// time.AfterFunc), where the gap's function and every writer under its
// lock run only where the package calls them, from main or init, and are
// handed to no one. Its locks are defensive: whatever changes between two
// sections, the program changed itself, in order. (Test files aside, as
// for the package's other calling context.)

// onlyMainGoroutine reports whether g is such a gap.
func (e *engine) onlyMainGoroutine(g *Gap) bool {
	class := lockClass(g.Lock)
	if e.pkg.Pkg.Name() != "main" || class == "" || !e.startsNoGoroutine() || !e.onMainGoroutine(g.Fn) {
		return false
	}
	for _, w := range e.writers[class] {
		if !e.onMainGoroutine(w) {
			return false
		}
	}
	return true
}

// startsNoGoroutine reports whether no function of the package, test
// files aside, starts a goroutine (memoised).
func (e *engine) startsNoGoroutine() bool {
	if e.noGoroutines == nil {
		alone := true
		for _, fn := range e.funcs {
			if !inTestFile(fn) && runsGoroutines(fn, nil, func(*ssa.Function) bool { return false }, nil) {
				alone = false
				break
			}
		}
		e.noGoroutines = &alone
	}
	return *e.noGoroutines
}

// onMainGoroutine reports whether fn is main or an init function, or is
// called only, statically, by functions that are.
func (e *engine) onMainGoroutine(fn *ssa.Function) bool {
	return memoised(e.mainMemo, fn, func(fn *ssa.Function) bool {
		if fn.Parent() == nil && fn.Signature.Recv() == nil && (fn.Name() == "main" || fn.Name() == "init") {
			return true
		}
		return e.calledOnlyFrom(fn, e.onMainGoroutine)
	})
}

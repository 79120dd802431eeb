package lockflow

import (
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// Callbacks a framework calls one at a time. Some frameworks promise that
// the functions a package hands them never run beside each other; a lock
// inside them is defensive, and a gap between two of its sections cannot
// be raced by another run of the same callbacks:
//
//   - controller-runtime runs a controller's Reconcile on one worker
//     unless its options raise MaxConcurrentReconciles. The callbacks are
//     the Reconcile methods of one reconciler type; a package that names
//     the option (or GroupKindConcurrency) anywhere gets no such context.
//     A manager-wide setting in another package is not seen.
//   - telegraf's agent runs an input's Gather(telegraf.Accumulator) on
//     one goroutine per input, waiting for each run to end before the
//     next (a run that overruns its interval makes the next one skipped,
//     not doubled), after the input's Start; it runs an output's
//     Write([]telegraf.Metric) likewise from one flush loop. The
//     callbacks are the Gather and Start methods, or the Write methods,
//     of one plugin type.
//   - caddy (v1, and CoreDNS's fork) runs the directives' setup functions,
//     func(*caddy.Controller) error, one after another while it builds an
//     instance; the instance storage a Controller reaches exists only for
//     them.
//   - Any package's helper that keeps a function for the one goroutine it
//     starts (a SerialCallback fact, serialcallback.go): the function the
//     package hands it, at one place, is the callback, run one call at a
//     time per object; state in package variables, shared by every
//     object's goroutine, is not covered.
//
// A gap is dropped when its function runs only under such callbacks (it
// is one, or the package calls it only from functions that are) and so
// does every function of the package writing what its stale read read; a
// gap on a caddy Controller's own storage needs no more. A function a go
// statement starts, or that is used as a value (but as such a callback),
// is outside the context.

const (
	reconcilePkg = "sigs.k8s.io/controller-runtime/pkg/reconcile"
	telegrafPkg  = "github.com/influxdata/telegraf"
)

// caddyPkgs: the packages declaring caddy v1's Controller.
var caddyPkgs = map[string]bool{
	"github.com/coredns/caddy":     true,
	"github.com/caddyserver/caddy": true,
	"github.com/mholt/caddy":       true,
}

const caddySetup = "caddy setup"

// serialisedByFramework reports whether g's function and the writers of
// what its stale read read run only under callbacks its framework calls
// one at a time.
func (e *engine) serialisedByFramework(g *Gap) bool {
	ctx := e.serialContext(g.Fn)
	if ctx == "" {
		return false
	}
	if ctx == caddySetup && g.Lock.Root != nil && isCaddyController(g.Lock.Root.Type()) {
		return true
	}
	if lockClass(g.Lock) == "" {
		return false
	}
	if _, global := g.Lock.Root.(*ssa.Global); global && strings.HasPrefix(ctx, serialCallbackPrefix) {
		// One goroutine per object: state all objects share has many.
		return false
	}
	writers, insertOnly := e.stateWriters(g)
	for _, w := range writers {
		if e.cannotUndo(g, w, insertOnly) {
			// As for a worker's state (ownedByWorker).
			continue
		}
		if e.serialContext(w) != ctx {
			return false
		}
	}
	return true
}

// serialContext names the framework callbacks fn runs under ("" for
// none): fn is one of them, or runs only where the package calls it and
// every caller runs under the same. Memoised; "" while fn's own cycle of
// calls is explored.
func (e *engine) serialContext(fn *ssa.Function) string {
	if e.serialMemo == nil {
		e.serialMemo = make(map[*ssa.Function]string)
	}
	if c, ok := e.serialMemo[fn]; ok {
		return c
	}
	e.serialMemo[fn] = ""
	c := e.findSerialContext(fn)
	e.serialMemo[fn] = c
	return c
}

func (e *engine) findSerialContext(fn *ssa.Function) string {
	if ctx := e.frameworkCallback(fn); ctx != "" {
		// The package may call it too (a test driving a reconcile), but
		// only from named functions, not from a goroutine it starts.
		if len(e.started[fn]) > 0 {
			return ""
		}
		for _, c := range e.calls[fn] {
			if c.caller.Parent() != nil || len(e.started[c.caller]) > 0 {
				return ""
			}
		}
		return ctx
	}
	if ctx := e.serialCallbackContext(fn); ctx != "" {
		return ctx
	}
	if fn.Parent() != nil && deferredInPlace(fn) {
		// A closure deferred (or called) where it is made runs on its
		// maker's goroutine.
		return e.serialContext(fn.Parent())
	}
	if !e.callsKnown(fn) {
		return ""
	}
	ctx := ""
	for _, c := range e.calls[fn] {
		k := e.serialContext(c.caller)
		if k == "" || ctx != "" && k != ctx {
			return ""
		}
		ctx = k
	}
	return ctx
}

// frameworkCallback names the callbacks fn is one of, by its signature:
// a reconciler's Reconcile method, or a caddy setup function.
func (e *engine) frameworkCallback(fn *ssa.Function) string {
	sig := fn.Signature
	if fn.Parent() != nil || sig.Results().Len() == 0 || !isError(sig.Results().At(sig.Results().Len()-1).Type()) {
		return ""
	}
	params := sig.Params()
	switch {
	case fn.Name() == "Reconcile" && sig.Recv() != nil && params.Len() == 2 && sig.Results().Len() == 2 &&
		inPackage(params.At(1).Type(), reconcilePkg) && inPackage(sig.Results().At(0).Type(), reconcilePkg):
		if e.raisesConcurrentReconciles() {
			return ""
		}
		return "reconcile " + types.TypeString(deref(sig.Recv().Type()), nil)
	case sig.Recv() == nil && params.Len() == 1 && sig.Results().Len() == 1 && isCaddyController(params.At(0).Type()):
		return caddySetup
	case sig.Recv() != nil && params.Len() == 1 && sig.Results().Len() == 1 && (fn.Name() == "Gather" || fn.Name() == "Start") &&
		isTelegraf(params.At(0).Type(), "Accumulator"):
		return "telegraf input " + types.TypeString(deref(sig.Recv().Type()), nil)
	case sig.Recv() != nil && params.Len() == 1 && sig.Results().Len() == 1 && fn.Name() == "Write":
		if sl, ok := params.At(0).Type().Underlying().(*types.Slice); ok && isTelegraf(sl.Elem(), "Metric") {
			return "telegraf output " + types.TypeString(deref(sig.Recv().Type()), nil)
		}
	}
	return ""
}

// raisesConcurrentReconciles reports whether the package sets or reads
// controller-runtime's MaxConcurrentReconciles or GroupKindConcurrency
// anywhere (memoised). A manager-wide setting made in another package
// (the command's ctrl.Options) is not seen.
func (e *engine) raisesConcurrentReconciles() bool {
	if e.concurrentReconciles == nil {
		found := false
		for id, obj := range e.pass.TypesInfo.Uses {
			if v, ok := obj.(*types.Var); ok && v.IsField() && (id.Name == "MaxConcurrentReconciles" || id.Name == "GroupKindConcurrency") {
				found = true
				break
			}
		}
		e.concurrentReconciles = &found
	}
	return *e.concurrentReconciles
}

// isTelegraf reports whether t is telegraf's interface of that name.
func isTelegraf(t types.Type, name string) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Name() == name && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == telegrafPkg
}

// isCaddyController reports whether t is *caddy.Controller (caddy v1 or
// CoreDNS's fork).
func isCaddyController(t types.Type) bool {
	ptr, ok := types.Unalias(t).(*types.Pointer)
	if !ok {
		return false
	}
	n, ok := types.Unalias(ptr.Elem()).(*types.Named)
	return ok && n.Obj().Name() == "Controller" && n.Obj().Pkg() != nil && caddyPkgs[n.Obj().Pkg().Path()]
}

// inPackage reports whether t (or what it points to) is a named type
// declared in the package with the given path.
func inPackage(t types.Type, path string) bool {
	n, ok := types.Unalias(deref(t)).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == path
}

// deferredInPlace reports whether the closure fn is only ever called, or
// deferred, by the function that makes it: never started as a goroutine
// nor handed on. (onlyCalled, for the call structure, takes go
// statements and leaves out defers: the opposite choice.)
func deferredInPlace(fn *ssa.Function) bool {
	made := false
	for _, b := range fn.Parent().Blocks {
		for _, instr := range b.Instrs {
			mc, ok := instr.(*ssa.MakeClosure)
			if !ok || mc.Fn != fn {
				continue
			}
			made = true
			for _, r := range *mc.Referrers() {
				c, ok := r.(ssa.CallInstruction)
				if _, started := r.(*ssa.Go); !ok || started || c.Common().Value != mc || slices.Contains(c.Common().Args, ssa.Value(mc)) {
					return false
				}
			}
		}
	}
	return made
}

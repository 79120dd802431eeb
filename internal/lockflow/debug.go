package lockflow

import (
	"fmt"
	"golang.org/x/tools/go/ssa"
	"os"
)

var debugEnabled = os.Getenv("LOCKFLOW_DEBUG") != ""

func (fs *funcState) dump() {
	if !debugEnabled {
		return
	}
	fmt.Fprintf(os.Stderr, "== %s\n", fs.fn)
	for i, r := range fs.reads {
		fmt.Fprintf(os.Stderr, "  read %d %s %v held=%v\n", i, r.instr, r.loc, r.held)
	}
	for _, w := range fs.writes {
		fmt.Fprintf(os.Stderr, "  write %s %v held=%v data=%v ctl=%v guards=%+v\n", w.instr, w.loc, w.held,
			fs.dataTaint(w.data), fs.blockCtl[w.instr.Block().Index], w.guards)
	}
}

// explain prints, for a gap the calling-context filters look at, what the
// writer rules see: the writers of the state read, the worker goroutine
// of the function and of each writer.
func (e *engine) explain(g *Gap) {
	if !debugEnabled {
		return
	}
	writers, insertOnly := e.stateWriters(g)
	f := fieldClass(g.ReadLoc)
	fmt.Fprintf(os.Stderr, "context %s lock=%s read=%s ownerUnlocked=%v countNonzero=%v atLeast=%v worker=%v\n", g.Fn, lockClass(g.Lock), f,
		g.ownerUnlocked, g.countNonzero, g.atLeast, e.worker(g.Fn) != nil)
	e.explainLocked(g.Fn, 0)
	if ctx := e.serialContext(g.Fn); ctx != "" {
		fmt.Fprintf(os.Stderr, "  framework %q serialised=%v\n", ctx, e.serialisedByFramework(g))
	}
	if root := e.worker(g.Fn); root != nil {
		fmt.Fprintf(os.Stderr, "  worker %s in %s loops=%v repeatedly=%v owned=%v\n", e.pass.Fset.Position(root.instr.Pos()), root.Parent(), loops(root), e.spawnedRepeatedly(root), e.ownedByWorker(g))
	}
	if e.onlyCalledLocked(g.Fn) {
		for _, w := range e.uncoveredWriters(g) {
			fmt.Fprintf(os.Stderr, "  outer lock: writer %s takes none\n", w)
			e.explainLocked(w, 1)
		}
	}
	for _, w := range writers {
		fmt.Fprintf(os.Stderr, "  writer %s bare=%v insertOnly=%v increments=%v through=%v worker=%v escapes=%v started=%d calls=%d framework=%q\n", w, e.bareWriters[e.stateKey(g)][w], insertOnly[w],
			f != "" && e.onlyIncrements(w, f), f != "" && e.writesOnlyThrough(w, f, g.Fn),
			e.worker(w) != nil, e.escapes[w], len(e.started[w]), len(e.calls[w]), e.serialContext(w))
	}
}

// explainLocked prints why fn is not known to run with a lock held: the
// first call, up the package's call chain, made with none.
func (e *engine) explainLocked(fn *ssa.Function, depth int) {
	if !debugEnabled || depth > 8 {
		return
	}
	if !e.callsKnown(fn) {
		fmt.Fprintf(os.Stderr, "  %*scalls of %s not known (escapes=%v started=%d calls=%d)\n", depth, "", fn, e.escapes[fn], len(e.started[fn]), len(e.calls[fn]))
		return
	}
	for _, c := range e.calls[fn] {
		if !e.lockedCalls[c.instr] && !e.onlyCalledLocked(c.caller) {
			fmt.Fprintf(os.Stderr, "  %*s%s calls %s unlocked at %s\n", depth, "", c.caller, fn, e.pass.Fset.Position(c.instr.Pos()))
			e.explainLocked(c.caller, depth+1)
			return
		}
	}
}

package lockflow

import (
	"fmt"
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
	fmt.Fprintf(os.Stderr, "context %s lock=%s read=%s ownerUnlocked=%v countNonzero=%v worker=%v\n", g.Fn, lockClass(g.Lock), f,
		g.ownerUnlocked, g.countNonzero, e.worker(g.Fn) != nil)
	for _, w := range writers {
		fmt.Fprintf(os.Stderr, "  writer %s insertOnly=%v increments=%v through=%v worker=%v escapes=%v started=%d calls=%d\n", w, insertOnly[w],
			f != "" && e.onlyIncrements(w, f), f != "" && e.writesOnlyThrough(w, f, g.Fn),
			e.worker(w) != nil, e.escapes[w], len(e.started[w]), len(e.calls[w]))
	}
}

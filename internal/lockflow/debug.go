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

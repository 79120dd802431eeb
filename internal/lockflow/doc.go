// Package lockflow is lockgap's shared engine: it finds the critical
// sections of each function and the values that cross from one section of
// a lock into a later section of the same lock.
//
// The engine works on SSA form, function by function, with summaries of the
// package's own functions standing in for their bodies at call sites:
//
//   - A lock is named by an access path: a root (parameter, receiver,
//     package variable, captured variable, local allocation) followed by
//     field selections and dereferences (path.go).
//   - A forward data-flow over the control-flow graph gives, before each
//     instruction, the locks held on every path and the Lock calls that may
//     have opened each of them (held.go).
//   - Every load of shared memory and every map lookup is a read site;
//     every store, map update, delete and clear is a write site. Reads taint
//     the values computed from them, through data and control dependence
//     (function.go, postdom.go). A call of a helper made with a lock held
//     reads and writes, for the caller, under that lock whatever the
//     helper does not lock itself (the ...Locked convention).
//   - A gap is a read in section A of a lock whose value decides a write in
//     a later section B of the same lock, where B does not re-establish the
//     decision (gap.go).
//   - Calling contexts the package's own call structure rules a gap out
//     in: package initialisation, construction, one worker goroutine, an
//     outer lock (callctx.go, owner.go). Where the decision rests with
//     callers in other packages (a registry filled from their init
//     functions), the gap carries the exported entries as its condition
//     and the driver settles it over the module (entries.go).
//
// Passes ask for the Result of Analyzer and decide which gaps to report.
package lockflow

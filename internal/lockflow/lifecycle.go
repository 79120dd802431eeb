package lockflow

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// A worker started by a lifecycle method rather than by a constructor:
//
//	func (s *Store) Open() error { s.load(); s.wg.Add(1); go s.loop(); return nil }
//	func (s *Store) Close() { close(s.quit); s.wg.Wait(); s.mu.Lock(); s.root = nil; s.mu.Unlock() }
//
// The engine counts the go statement of a method that runs it once, not in
// a loop, as one worker per object, which takes the method to run once
// per object (Open, Start). Then what the method does to its receiver
// before the go statement, itself, in closures it runs there, or through
// methods it alone calls there, happens before the worker exists
// (s.load); and what a method
// does after waiting on the WaitGroup the starting method adds the worker
// to, and the worker marks done, happens after the worker has ended
// (Close). Neither writer can come between two sections of the worker.

// setUpBeforeWorker reports whether the method w runs only on the
// receiver of the method starting root, which starts the worker on that
// receiver, before the go statement: called there, or by methods that
// are themselves so called.
func (e *engine) setUpBeforeWorker(w *ssa.Function, root *goStart, depth int) bool {
	starter := root.Parent()
	if depth > 3 || !onOwnReceiver(starter, root.args) || !e.callsKnown(w) {
		return false
	}
	closure := w.Parent() != nil
	if !closure && w.Signature.Recv() == nil {
		return false
	}
	for _, c := range e.calls[w] {
		call, ok := c.instr.(ssa.CallInstruction)
		switch {
		case !ok:
			return false
		case closure:
			// A closure its function runs in place: calls, or hands to
			// a function that calls it back before returning.
			if c.caller != w.Parent() {
				return false
			}
		case c.callback || !onOwnReceiver(c.caller, call.Common().Args):
			return false
		}
		if c.caller == starter {
			if inLoop(call.Block()) || !cannotPrecede(root.instr, c.instr) {
				return false
			}
		} else if !e.setUpBeforeWorker(c.caller, root, depth+1) {
			return false
		}
	}
	return true
}

// writesBeforeStart reports whether w is the method starting root on its
// receiver and writes what g's stale read read (its own stores of the
// field, and its calls of the other writers) only where the go statement
// cannot have run yet.
func (e *engine) writesBeforeStart(w *ssa.Function, g *Gap, root *goStart, writers []*ssa.Function) bool {
	f := fieldClass(g.ReadLoc)
	if w != root.Parent() || f == "" || !onOwnReceiver(w, root.args) {
		return false
	}
	return writesOnlyBeforeGo(w, root, func(instr ssa.Instruction) bool { return e.writesField(instr, w, f, writers) })
}

// writesField reports whether instr, in fn, stores the field f or calls
// another of its writers.
func (e *engine) writesField(instr ssa.Instruction, fn *ssa.Function, f string, writers []*ssa.Function) bool {
	if st, ok := instr.(*ssa.Store); ok {
		return fieldClass(pathOf(st.Addr)) == f
	}
	return e.callsWriter(instr, fn, writers)
}

// onOwnReceiver reports whether args, of a call or go statement in the
// method fn, start with fn's own receiver.
func onOwnReceiver(fn *ssa.Function, args []ssa.Value) bool {
	return len(args) > 0 && isOwnReceiver(fn, args[0])
}

// isOwnReceiver reports whether v, in the method fn, is fn's receiver:
// the parameter, or a load of the cell that holds only it (where a
// closure captures the receiver).
func isOwnReceiver(fn *ssa.Function, v ssa.Value) bool {
	if fn.Signature.Recv() == nil || len(fn.Params) == 0 {
		return false
	}
	if load, ok := v.(*ssa.UnOp); ok && load.Op == token.MUL && load.Parent() == fn {
		return holdsOnly(load.X, fn.Params[0])
	}
	return v == fn.Params[0]
}

// afterWorkerEnds reports whether the method w writes what g's stale read
// read (its own stores of the field, and its calls of the other writers)
// only after waiting on a WaitGroup of its receiver that the method
// starting root adds the worker to, on that receiver, before starting it,
// and that the worker marks done (or that starts the worker itself, with
// its Go method).
func (e *engine) afterWorkerEnds(w *ssa.Function, g *Gap, root *goStart, writers []*ssa.Function) bool {
	f := fieldClass(g.ReadLoc)
	if f == "" || len(w.Params) == 0 || w.Signature.Recv() == nil || !onOwnReceiver(root.Parent(), root.args) {
		return false
	}
	group := e.workerGroup(root)
	if group == nil {
		return false
	}
	var wait ssa.Instruction
	for _, b := range w.Blocks {
		for _, instr := range b.Instrs {
			if v, ok := waitGroupCall(instr, "Wait"); ok && v == group && fieldOf(instr, w) {
				wait = instr
			}
		}
	}
	if wait == nil {
		return false
	}
	for _, b := range w.Blocks {
		for _, instr := range b.Instrs {
			if e.writesField(instr, w, f, writers) && (instr == wait || !runsAfter(wait, instr)) {
				return false
			}
		}
	}
	return true
}

// workerGroup returns the WaitGroup field of the starting method's
// receiver that tracks root's worker: the one whose Go method starts it,
// or one the method adds to before the go statement and the worker marks
// done (in a deferred closure too). Nil when there is none.
func (e *engine) workerGroup(root *goStart) *types.Var {
	starter := root.Parent()
	if v, ok := waitGroupCall(root.instr, "Go"); ok && fieldOf(root.instr, starter) {
		return v
	}
	worker := root.callee()
	if worker == nil {
		return nil
	}
	for _, b := range starter.Blocks {
		for _, instr := range b.Instrs {
			v, ok := waitGroupCall(instr, "Add")
			if ok && fieldOf(instr, starter) && runsAfter(instr, root.instr) && marksDone(worker, v, 0) {
				return v
			}
		}
	}
	return nil
}

// marksDone reports whether fn, or a closure it defers, calls Done on the
// WaitGroup field v.
func marksDone(fn *ssa.Function, v *types.Var, depth int) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if d, ok := waitGroupCall(instr, "Done"); ok && d == v {
				return true
			}
			if def, ok := instr.(*ssa.Defer); ok && depth == 0 {
				if mc, ok := def.Call.Value.(*ssa.MakeClosure); ok {
					if body, ok := mc.Fn.(*ssa.Function); ok && marksDone(body, v, 1) {
						return true
					}
				}
			}
		}
	}
	return false
}

// waitGroupCall returns the field holding the sync.WaitGroup whose method
// name instr calls (as a call or a deferred call), when the group is a
// field of a struct.
func waitGroupCall(instr ssa.Instruction, name string) (*types.Var, bool) {
	call, ok := instr.(ssa.CallInstruction)
	if !ok {
		return nil, false
	}
	c := call.Common()
	callee := c.StaticCallee()
	if callee == nil || callee.Name() != name || len(c.Args) == 0 {
		return nil, false
	}
	recv := callee.Signature.Recv()
	if recv == nil || !isNamed(deref(recv.Type()), "sync", "WaitGroup") {
		return nil, false
	}
	fa, ok := c.Args[0].(*ssa.FieldAddr)
	if !ok {
		return nil, false
	}
	v := fieldVar(fa.X.Type(), fa.Field)
	return v, v != nil
}

// fieldOf reports whether the WaitGroup instr calls (waitGroupCall's) is
// a field of the receiver of the method fn: recv.wg.
func fieldOf(instr ssa.Instruction, fn *ssa.Function) bool {
	fa := instr.(ssa.CallInstruction).Common().Args[0].(*ssa.FieldAddr)
	return isOwnReceiver(fn, fa.X)
}

// A method that sets its receiver up (Init, Initialize, or Open with no
// argument but a context) is, by the convention of Go APIs, called once
// per object by the code that owns it, before the object is shared or
// between a Close and the next use, never by two goroutines at once.
// Its own "already set up?" test, made in one section and acted on in
// another, then has no second caller to go stale against:
//
//	func (m *Monitor) Open() error {
//		if m.isOpen() { return nil }
//		m.mu.Lock(); m.done = make(chan struct{}); m.mu.Unlock()
//		...
//
// Open with arguments is left out: fs.FS's Open(name) and its kin look
// things up for any number of callers at once.

// setUpMethod reports whether g's function is such a set-up method and
// g's lock belongs to its receiver.
func setUpMethod(g *Gap) bool {
	fn := g.Fn
	if fn.Parent() != nil || fn.Signature.Recv() == nil || len(fn.Params) == 0 || g.Lock.Root != fn.Params[0] {
		return false
	}
	res := fn.Signature.Results()
	if res.Len() > 1 || res.Len() == 1 && !types.Identical(res.At(0).Type(), types.Universe.Lookup("error").Type()) {
		return false
	}
	switch fn.Name() {
	case "Init", "Initialize":
		return true
	case "Open":
		for _, p := range fn.Params[1:] {
			if !isNamed(p.Type(), "context", "Context") {
				return false
			}
		}
		return true
	}
	return false
}

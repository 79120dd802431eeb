package lockflow

import (
	"slices"

	"golang.org/x/tools/go/ssa"
)

// heldLock is one lock held at a program point, with the acquisitions that
// may have opened the current critical section. Two program points are in
// the same section of a lock when their opener sets intersect.
type heldLock struct {
	key     pathKey
	path    Path
	mode    Mode
	openers []int // indices into lockFlow.acquires; sorted
	claim   bool  // a claim map's pseudo-lock: an outer lock only
}

// lockState is the set of locks held on every path to a program point.
// States are shared between program points and never mutated in place.
type lockState []heldLock

func (s lockState) lookup(k pathKey) (heldLock, bool) {
	for _, h := range s {
		if h.key == k {
			return h, true
		}
	}
	return heldLock{}, false
}

func (s lockState) without(k pathKey) lockState {
	i := slices.IndexFunc(s, func(h heldLock) bool { return h.key == k })
	if i < 0 {
		return s
	}
	out := make(lockState, 0, len(s)-1)
	out = append(out, s[:i]...)
	return append(out, s[i+1:]...)
}

func (s lockState) with(h heldLock) lockState {
	out := append(make(lockState, 0, len(s)+1), s.without(h.key)...)
	return append(out, h)
}

// meet keeps the locks held, in the same mode, on both inputs.
func meet(a, b lockState) lockState {
	var out lockState
	for _, h := range a {
		g, ok := b.lookup(h.key)
		if !ok || g.mode != h.mode {
			continue
		}
		if !slices.Equal(h.openers, g.openers) {
			h.openers = unionInts(h.openers, g.openers)
		}
		out = append(out, h)
	}
	return out
}

func equalStates(a, b lockState) bool {
	if len(a) != len(b) {
		return false
	}
	for _, h := range a {
		g, ok := b.lookup(h.key)
		if !ok || g.mode != h.mode || !slices.Equal(g.openers, h.openers) {
			return false
		}
	}
	return true
}

func unionInts(a, b []int) []int {
	out := make([]int, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case j == len(b) || (i < len(a) && a[i] < b[j]):
			out = append(out, a[i])
			i++
		case i == len(a) || b[j] < a[i]:
			out = append(out, b[j])
			j++
		default:
			out = append(out, a[i])
			i++
			j++
		}
	}
	return out
}

func intersects(a, b []int) bool {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] == b[j]:
			return true
		case a[i] < b[j]:
			i++
		default:
			j++
		}
	}
	return false
}

// acquire is one opening of a critical section: a Lock or RLock call, or a
// call of a helper that takes the lock itself (then the section is the
// whole call).
type acquire struct {
	instr  ssa.Instruction
	path   Path
	mode   Mode
	helper bool
	rel    relPath // for a helper: the lock relative to the callee
	claim  bool    // a pseudo-lock (claims.go, semaphore.go)
}

// lockFlow is the result of the held-lock data-flow of one function.
type lockFlow struct {
	acquires []acquire
	ops      map[ssa.Instruction]lockOp // direct Lock/Unlock calls (not deferred)
	entry    map[*ssa.BasicBlock]lockState
	acqIndex map[ssa.Instruction]int
	// enter: blocks entered holding a lock taken on the edge into them
	// (a select's case that took a semaphore), by acquire index.
	enter map[*ssa.BasicBlock]int
}

// step applies one instruction to the state.
func (lf *lockFlow) step(s lockState, instr ssa.Instruction) lockState {
	op, ok := lf.ops[instr]
	if !ok {
		return s
	}
	k := op.path.key()
	if op.kind == opRelease {
		return s.without(k)
	}
	return s.with(heldLock{key: k, path: op.path, mode: op.mode, openers: []int{lf.acqIndex[instr]}, claim: op.claim})
}

// computeHeld runs the forward must-hold analysis to a fixed point. Each
// block's entry state is recomputed only when a predecessor's exit state
// changes, so the cost is linear in the function size times the (small)
// loop nesting depth.
func computeHeld(fn *ssa.Function, ops map[ssa.Instruction]lockOp, acqs []acquire, enter map[*ssa.BasicBlock]int) *lockFlow {
	lf := &lockFlow{acquires: acqs, ops: ops, entry: make(map[*ssa.BasicBlock]lockState, len(fn.Blocks)),
		acqIndex: make(map[ssa.Instruction]int, len(acqs)), enter: enter}
	for i, a := range acqs {
		if !a.helper {
			lf.acqIndex[a.instr] = i
		}
	}
	exit := make(map[*ssa.BasicBlock]lockState, len(fn.Blocks))
	visited := make(map[*ssa.BasicBlock]bool, len(fn.Blocks))
	var work []*ssa.BasicBlock
	queued := make(map[*ssa.BasicBlock]bool)
	push := func(b *ssa.BasicBlock) {
		if !queued[b] {
			queued[b] = true
			work = append(work, b)
		}
	}
	if len(fn.Blocks) == 0 {
		return lf
	}
	push(fn.Blocks[0])
	if fn.Recover != nil {
		push(fn.Recover)
	}
	for len(work) > 0 {
		b := work[0]
		work = work[1:]
		queued[b] = false
		var in lockState
		first := true
		for _, p := range b.Preds {
			if !visited[p] {
				continue
			}
			if first {
				in, first = exit[p], false
			} else {
				in = meet(in, exit[p])
			}
		}
		if i, ok := lf.enter[b]; ok {
			a := lf.acquires[i]
			in = in.with(heldLock{key: a.path.key(), path: a.path, mode: a.mode, openers: []int{i}, claim: a.claim})
		}
		if old, ok := lf.entry[b]; ok && visited[b] && equalStates(old, in) {
			continue
		}
		lf.entry[b] = in
		visited[b] = true
		s := in
		for _, instr := range b.Instrs {
			s = lf.step(s, instr)
		}
		exit[b] = s
		for _, succ := range b.Succs {
			push(succ)
		}
	}
	return lf
}

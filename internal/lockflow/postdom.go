package lockflow

import (
	"go/constant"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// controlDeps holds, for each block, the branches it is directly control
// dependent on (Ferrante et al.): block b depends on edge (c, i) when b
// post-dominates c's i-th successor but not c itself.
type controlDeps struct {
	deps       [][]branch                   // indexed by block index
	dependents map[branch][]*ssa.BasicBlock // the inverse: blocks directly dependent on a branch
	// ctl: what the taint takes a block's reaching to depend on. A block
	// reached when every operation succeeds depends on the branches that
	// decide it on that happy path, and on each failure test it passes
	// (only on that test's own condition); blocks reached only through a
	// failure keep deps.
	ctl [][]ctlDep
}

// branch is one outgoing edge of a block ending in *ssa.If.
type branch struct {
	block *ssa.BasicBlock
	succ  int
}

// computeControlDeps builds post-dominators with the iterative algorithm of
// Cooper, Harvey and Kennedy on the reversed CFG (a virtual exit joins every
// block without successors), then walks each branch edge up the
// post-dominator tree.
//
// It also works out, for the taint, what each block's reaching depends on
// when no operation fails (ctl): see failureExit.
func computeControlDeps(fn *ssa.Function) *controlDeps {
	ipdom := postDominators(fn, nil)
	cd := &controlDeps{deps: make([][]branch, len(fn.Blocks)), dependents: make(map[branch][]*ssa.BasicBlock)}
	cd.deps = dependences(fn, ipdom, nil)
	for b, ds := range cd.deps {
		for _, d := range ds {
			cd.dependents[d] = append(cd.dependents[d], fn.Blocks[b])
		}
	}
	cd.ctl = make([][]ctlDep, len(fn.Blocks))
	failures := make(map[*ssa.BasicBlock]int)
	for _, b := range fn.Blocks {
		if i, ok := failureExit(b); ok {
			failures[b] = i
		}
	}
	if len(failures) == 0 {
		for b, ds := range cd.deps {
			for _, d := range ds {
				cd.ctl[b] = append(cd.ctl[b], ctlDep{d, true})
			}
		}
		return cd
	}
	cut := func(b *ssa.BasicBlock, succ int) bool {
		i, ok := failures[b]
		return ok && i == succ
	}
	happy := dependences(fn, postDominators(fn, cut), cut)
	onHappyPath := happyReachable(fn, cut)
	for b, ds := range cd.deps {
		if !onHappyPath[b] {
			for _, d := range ds {
				cd.ctl[b] = append(cd.ctl[b], ctlDep{d, true})
			}
			continue
		}
		for _, d := range happy[b] {
			cd.ctl[b] = append(cd.ctl[b], ctlDep{d, true})
		}
		for _, d := range ds {
			if _, failing := failures[d.block]; failing && !slices.Contains(happy[b], d) {
				cd.ctl[b] = append(cd.ctl[b], ctlDep{d, false})
			}
		}
	}
	return cd
}

// ctlDep is one branch a block's reaching depends on; through says the
// block also depends on what decided the branch's own block to be reached.
type ctlDep struct {
	br      branch
	through bool
}

// postDominators returns each block's immediate post-dominator (len(Blocks)
// stands for the virtual exit), on the CFG without the edges cut names.
func postDominators(fn *ssa.Function, cut func(*ssa.BasicBlock, int) bool) []int {
	n := len(fn.Blocks)
	exit := n
	// Reverse post-order of the reversed graph, from the virtual exit.
	order := make([]int, 0, n+1)
	seen := make([]bool, n+1)
	var exits []int
	for _, b := range fn.Blocks {
		if len(b.Succs) == 0 && !impossibleSelect(b) {
			exits = append(exits, b.Index)
		}
	}
	kept := func(b *ssa.BasicBlock, i int) bool { return cut == nil || !cut(b, i) }
	// Iterative DFS on predecessors.
	type frame struct{ node, next int }
	stack := []frame{{exit, 0}}
	seen[exit] = true
	preds := func(v int) []int { // predecessors in the reversed graph = successors in the CFG
		if v == exit {
			return nil
		}
		b := fn.Blocks[v]
		out := make([]int, 0, len(b.Succs))
		for i, s := range b.Succs {
			if kept(b, i) {
				out = append(out, s.Index)
			}
		}
		if len(b.Succs) == 0 {
			out = append(out, exit)
		}
		return out
	}
	revSuccs := func(v int) []int { // successors in the reversed graph
		if v == exit {
			return exits
		}
		out := make([]int, 0, len(fn.Blocks[v].Preds))
		for _, p := range fn.Blocks[v].Preds {
			if cut == nil || slices.ContainsFunc(preds(p.Index), func(s int) bool { return s == v }) {
				out = append(out, p.Index)
			}
		}
		return out
	}
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		succs := revSuccs(top.node)
		if top.next < len(succs) {
			s := succs[top.next]
			top.next++
			if !seen[s] {
				seen[s] = true
				stack = append(stack, frame{s, 0})
			}
			continue
		}
		order = append(order, top.node)
		stack = stack[:len(stack)-1]
	}
	// order is post-order; number nodes by it.
	num := make([]int, n+1)
	for i := range num {
		num[i] = -1
	}
	for i, v := range order {
		num[v] = i
	}
	ipdom := make([]int, n+1)
	for i := range ipdom {
		ipdom[i] = -1
	}
	ipdom[exit] = exit
	intersect := func(a, b int) int {
		for a != b {
			for num[a] < num[b] {
				a = ipdom[a]
			}
			for num[b] < num[a] {
				b = ipdom[b]
			}
		}
		return a
	}
	for changed := true; changed; {
		changed = false
		for i := len(order) - 1; i >= 0; i-- {
			v := order[i]
			if v == exit {
				continue
			}
			nd := -1
			for _, p := range preds(v) {
				if ipdom[p] == -1 {
					continue
				}
				if nd == -1 {
					nd = p
				} else {
					nd = intersect(p, nd)
				}
			}
			if nd != -1 && ipdom[v] != nd {
				ipdom[v] = nd
				changed = true
			}
		}
	}
	// Blocks that cannot reach an exit (infinite loops) hang off the exit.
	for v := range ipdom {
		if ipdom[v] == -1 {
			ipdom[v] = exit
		}
	}
	return ipdom
}

// dependences walks each kept branch edge up the post-dominator tree.
func dependences(fn *ssa.Function, ipdom []int, cut func(*ssa.BasicBlock, int) bool) [][]branch {
	exit := len(fn.Blocks)
	deps := make([][]branch, len(fn.Blocks))
	for _, c := range fn.Blocks {
		if len(c.Succs) < 2 {
			continue
		}
		for i, s := range c.Succs {
			if cut != nil && cut(c, i) {
				continue
			}
			for r := s.Index; r != ipdom[c.Index] && r != exit; r = ipdom[r] {
				deps[r] = append(deps[r], branch{c, i})
				if ipdom[r] == r {
					break
				}
			}
		}
	}
	return deps
}

// happyReachable reports, per block, whether the entry reaches it without
// taking a cut edge.
func happyReachable(fn *ssa.Function, cut func(*ssa.BasicBlock, int) bool) []bool {
	reached := make([]bool, len(fn.Blocks))
	if len(fn.Blocks) == 0 {
		return reached
	}
	work := []*ssa.BasicBlock{fn.Blocks[0]}
	reached[0] = true
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		for i, s := range b.Succs {
			if !cut(b, i) && !reached[s.Index] {
				reached[s.Index] = true
				work = append(work, s)
			}
		}
	}
	return reached
}

// failureExit reports whether b tests whether an operation failed (err !=
// nil, on the error result of a call) and leaves the function on failure;
// it returns the failing successor. What comes after such a test is
// reached whenever the operation succeeds: a test that only decided
// whether the operation ran (if present { if err := resend(); err != nil
// { return err } }) does not decide what comes after.
func failureExit(b *ssa.BasicBlock) (int, bool) {
	if len(b.Instrs) == 0 || len(b.Succs) != 2 {
		return 0, false
	}
	cond, ok := ifCond(b).(*ssa.BinOp)
	if !ok || (cond.Op != token.NEQ && cond.Op != token.EQL) {
		return 0, false
	}
	v := cond.X
	if isNil(v) {
		v = cond.Y
	} else if !isNil(cond.Y) {
		return 0, false
	}
	if !types.Identical(v.Type(), errorType) || !callResult(v) {
		return 0, false
	}
	fail := 0
	if cond.Op == token.EQL {
		fail = 1
	}
	if !leaves(b.Succs[fail], b, b.Succs[1-fail]) {
		return 0, false
	}
	return fail, true
}

func callResult(v ssa.Value) bool {
	switch x := v.(type) {
	case *ssa.Call:
		return true
	case *ssa.Extract:
		_, ok := x.Tuple.(*ssa.Call)
		return ok
	}
	return false
}

// leaves reports whether every way on from start ends the function
// without coming back to from or reaching other; it looks at a few blocks
// only, as error handling is short.
func leaves(start, from, other *ssa.BasicBlock) bool {
	const limit = 16
	seen := map[*ssa.BasicBlock]bool{start: true}
	work := []*ssa.BasicBlock{start}
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		for _, s := range b.Succs {
			if s == from || s == other {
				return false
			}
			if !seen[s] {
				if len(seen) == limit {
					return false
				}
				seen[s] = true
				work = append(work, s)
			}
		}
	}
	return true
}

// ifCond returns the condition of the block's final If, or nil.
func ifCond(b *ssa.BasicBlock) ssa.Value {
	if len(b.Instrs) == 0 {
		return nil
	}
	if i, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If); ok {
		return i.Cond
	}
	return nil
}

// impossibleSelect reports whether b is the panic go/ssa adds after a
// blocking select's cases, which never runs: a branch is not decided by
// whether that select comes up.
func impossibleSelect(b *ssa.BasicBlock) bool {
	if len(b.Instrs) == 0 {
		return false
	}
	p, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Panic)
	if !ok {
		return false
	}
	mi, ok := p.X.(*ssa.MakeInterface)
	if !ok {
		return false
	}
	c, ok := mi.X.(*ssa.Const)
	return ok && c.Value != nil && c.Value.Kind() == constant.String &&
		constant.StringVal(c.Value) == "blocking select matched no case"
}

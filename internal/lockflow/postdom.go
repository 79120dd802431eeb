package lockflow

import (
	"go/constant"

	"golang.org/x/tools/go/ssa"
)

// controlDeps holds, for each block, the branches it is directly control
// dependent on (Ferrante et al.): block b depends on edge (c, i) when b
// post-dominates c's i-th successor but not c itself.
type controlDeps struct {
	deps       [][]branch                   // indexed by block index
	dependents map[branch][]*ssa.BasicBlock // the inverse: blocks directly dependent on a branch
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
func computeControlDeps(fn *ssa.Function) *controlDeps {
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
	// Iterative DFS on predecessors.
	type frame struct{ node, next int }
	stack := []frame{{exit, 0}}
	seen[exit] = true
	preds := func(v int) []int { // predecessors in the reversed graph = successors in the CFG
		if v == exit {
			return nil
		}
		out := make([]int, 0, len(fn.Blocks[v].Succs))
		for _, s := range fn.Blocks[v].Succs {
			out = append(out, s.Index)
		}
		if len(out) == 0 {
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
			out = append(out, p.Index)
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
	cd := &controlDeps{deps: make([][]branch, n), dependents: make(map[branch][]*ssa.BasicBlock)}
	for _, c := range fn.Blocks {
		if len(c.Succs) < 2 {
			continue
		}
		for i, s := range c.Succs {
			for r := s.Index; r != ipdom[c.Index] && r != exit; r = ipdom[r] {
				cd.deps[r] = append(cd.deps[r], branch{c, i})
				cd.dependents[branch{c, i}] = append(cd.dependents[branch{c, i}], fn.Blocks[r])
				if ipdom[r] == r {
					break
				}
			}
		}
	}
	return cd
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

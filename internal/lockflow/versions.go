package lockflow

import (
	"go/constant"
	"go/token"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// Re-validation by version inside a helper. A caller reads state in
// section A (a reservation, an entry and the generation it carries) and
// hands what it read to a helper that opens section B; the helper reads
// the state again and writes only where what it finds agrees with the
// caller's value: the same generation (or the same object), or one no
// newer than the caller's (it keeps the newer of the two). Its summary
// records, for the write, the location read again and the parameter it
// was compared with (relGuard.against); a caller whose argument carries
// its stale read has that read re-checked in B.

// versionGuards lists the tests of fs that compare a value read afresh in
// w's section with one a parameter carries, when every way to w passes
// one of them on the side where they agree. A flag set on either side of
// such a test and tested later (lost := true ... if lost { return }) is
// followed as the test it records.
func (fs *funcState) versionGuards(w *writeSite) []guard {
	type cand struct {
		reads []int
		param ssa.Value
	}
	var cands []cand
	agree := make(map[*ssa.BasicBlock]int)
	for _, t := range fs.versionTestsOf() {
		var reads []int
		for _, ri := range t.reads {
			if fs.inSectionOf(&fs.reads[ri], w) {
				reads = append(reads, ri)
			}
		}
		if len(reads) == 0 {
			continue
		}
		if s, ok := agree[t.block]; ok && s != t.side {
			delete(agree, t.block) // the two operands pull both ways: no test
			continue
		}
		agree[t.block] = t.side
		cands = append(cands, cand{reads, t.param})
	}
	if len(cands) == 0 || fs.reachesAvoiding(w.instr.Block(), agree) {
		return nil
	}
	var out []guard
	for _, c := range cands {
		for _, ri := range c.reads {
			out = append(out, guard{loc: fs.reads[ri].loc, read: ri, against: c.param})
		}
	}
	return out
}

// versionTest is a comparison of a value read afresh (reads) with one a
// parameter carries (param); side is the successor of block taken where
// they agree.
type versionTest struct {
	block *ssa.BasicBlock
	side  int
	reads []int
	param ssa.Value
}

// versionTestsOf lists the function's version tests once: which of them
// guard a write depends only on the write's section.
func (fs *funcState) versionTestsOf() []versionTest {
	if fs.versionTests != nil {
		return *fs.versionTests
	}
	var tests []versionTest
	for _, b := range fs.fn.Blocks {
		lhs, rhs, op, ok := comparison(ifCond(b))
		if !ok {
			continue
		}
		for _, swapped := range []bool{false, true} {
			x, y := lhs, rhs
			if swapped {
				x, y = y, x
			}
			if fs.paramCarried(y, 0) < 0 {
				continue
			}
			side := -1
			switch op {
			case token.EQL:
				side = 0
			case token.NEQ:
				side = 1
			case token.LSS, token.LEQ, token.GTR, token.GEQ:
				// fresh < caller's: the caller's is newer, write.
				if older := op == token.LSS || op == token.LEQ; older != swapped {
					side = 0
				} else {
					side = 1
				}
			}
			if side < 0 {
				continue
			}
			var reads []int
			fs.freshReads(x, 0, func(ri int) {
				if !slices.Contains(reads, ri) {
					reads = append(reads, ri)
				}
			})
			if len(reads) > 0 {
				tests = append(tests, versionTest{b, side, reads, y})
			}
		}
	}
	fs.versionTests = &tests
	return tests
}

// comparison returns the operands and the operator of a condition that
// compares two values: a binary comparison, or a time.Time's own (a.After(b)
// is a > b, a.Before(b) a < b, a.Equal(b) a == b, a.Compare(b) > 0 is
// a > b), through negations.
func comparison(cond ssa.Value) (x, y ssa.Value, op token.Token, ok bool) {
	cond, negated := negations(cond)
	switch c := cond.(type) {
	case *ssa.BinOp:
		x, y, op = c.X, c.Y, c.Op
		if call, isCall := x.(*ssa.Call); isCall && timeMethod(call) == "Compare" && isZeroConst(y) {
			x, y = call.Call.Args[0], call.Call.Args[1]
		}
	case *ssa.Call:
		switch timeMethod(c) {
		case "After":
			op = token.GTR
		case "Before":
			op = token.LSS
		case "Equal":
			op = token.EQL
		default:
			return nil, nil, 0, false
		}
		x, y = c.Call.Args[0], c.Call.Args[1]
	default:
		return nil, nil, 0, false
	}
	switch op {
	case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
	default:
		return nil, nil, 0, false
	}
	if negated {
		op = map[token.Token]token.Token{token.EQL: token.NEQ, token.NEQ: token.EQL,
			token.LSS: token.GEQ, token.GEQ: token.LSS, token.GTR: token.LEQ, token.LEQ: token.GTR}[op]
	}
	return x, y, op, true
}

// timeMethod names the comparison method of time.Time that call calls
// (with its receiver as the first argument), or "".
func timeMethod(call *ssa.Call) string {
	callee := call.Call.StaticCallee()
	if callee == nil || callee.Signature.Recv() == nil || len(call.Call.Args) != 2 {
		return ""
	}
	if !isNamed(callee.Signature.Recv().Type(), "time", "Time") {
		return ""
	}
	switch callee.Name() {
	case "After", "Before", "Equal", "Compare":
		return callee.Name()
	}
	return ""
}

func isZeroConst(v ssa.Value) bool {
	c, ok := v.(*ssa.Const)
	if !ok {
		return false
	}
	n, exact := constInt(c)
	return exact && n == 0
}

// inSectionOf reports whether r is read in the section w writes in (both
// with no lock held when w relies on its caller's).
func (fs *funcState) inSectionOf(r *readSite, w *writeSite) bool {
	if len(w.held) == 0 {
		return len(r.held) == 0 && r.instr != nil
	}
	for _, h := range w.held {
		if sameSection(r.held, w.held, h.key) {
			return true
		}
	}
	return false
}

// freshReads calls f for the reads v is, by value: through fields and
// local copies (cur := m[k]; cur.gen), as directReads does for the rest.
func (fs *funcState) freshReads(v ssa.Value, depth int, f func(ri int)) {
	if depth > 8 || v == nil {
		return
	}
	if instr, ok := v.(ssa.Instruction); ok {
		if ri, ok := fs.readIdx[instr]; ok && fs.reads[ri].value == v {
			f(ri)
			return
		}
	}
	switch x := v.(type) {
	case *ssa.UnOp:
		if x.Op == token.MUL {
			if a := fs.localRoot(x.X); a != nil {
				if vals, ok := fs.reachingOf(x, a); ok {
					for _, val := range vals {
						fs.freshReads(val, depth+1, f)
					}
				}
				return
			}
		}
	case *ssa.Field:
		fs.freshReads(x.X, depth+1, f)
		return
	case *ssa.Extract:
		fs.freshReads(x.Tuple, depth+1, f)
		return
	}
	fs.directReads(v, f)
}

// paramCarried returns the index of the parameter v is a copy of, or of
// part of (a field of a struct passed by value, through local copies),
// or -1. A field read through a pointer parameter is read now, not
// carried in.
func (fs *funcState) paramCarried(v ssa.Value, depth int) int {
	if depth > 8 {
		return -1
	}
	switch x := v.(type) {
	case *ssa.Parameter:
		return slices.Index(fs.fn.Params, x)
	case *ssa.Field:
		return fs.paramCarried(x.X, depth+1)
	case *ssa.ChangeType:
		return fs.paramCarried(x.X, depth+1)
	case *ssa.Convert:
		return fs.paramCarried(x.X, depth+1)
	case *ssa.MakeInterface:
		return fs.paramCarried(x.X, depth+1)
	case *ssa.UnOp:
		if x.Op != token.MUL {
			return -1
		}
		a := fs.localRoot(x.X)
		if a == nil {
			return -1
		}
		vals, ok := fs.reachingOf(x, a)
		if !ok || len(vals) == 0 {
			return -1
		}
		p := -1
		for i, val := range vals {
			q := fs.paramCarried(val, depth+1)
			if q < 0 || i > 0 && q != p {
				return -1
			}
			p = q
		}
		return p
	}
	return -1
}

// reachesAvoiding reports whether target can be reached from the entry
// without taking, at the blocks of agree, the successor they map to. A
// branch on a boolean phi of its own block, entered from a predecessor
// that gives the phi a constant, takes only the successor that constant
// chooses.
func (fs *funcState) reachesAvoiding(target *ssa.BasicBlock, agree map[*ssa.BasicBlock]int) bool {
	type edge struct{ from, to *ssa.BasicBlock }
	entry := fs.fn.Blocks[0]
	work := []edge{{nil, entry}}
	seen := map[edge]bool{{nil, entry}: true}
	for len(work) > 0 {
		e := work[len(work)-1]
		work = work[:len(work)-1]
		b := e.to
		if b == target {
			return true
		}
		succs := b.Succs
		if a, ok := agree[b]; ok && len(succs) == 2 {
			succs = succs[1-a : 2-a]
		} else if s, ok := flagSucc(b, e.from); ok {
			succs = succs[s : s+1]
		}
		for _, s := range succs {
			if ne := (edge{b, s}); !seen[ne] {
				seen[ne] = true
				work = append(work, ne)
			}
		}
	}
	return false
}

// flagSucc returns the successor b's branch takes when b is entered from
// pred and branches on a boolean phi of b (or its negation) that pred
// gives a constant.
func flagSucc(b, pred *ssa.BasicBlock) (int, bool) {
	if pred == nil || len(b.Succs) != 2 {
		return 0, false
	}
	cond := ifCond(b)
	neg := false
	if u, ok := cond.(*ssa.UnOp); ok && u.Op == token.NOT {
		cond, neg = u.X, true
	}
	phi, ok := cond.(*ssa.Phi)
	if !ok || phi.Block() != b {
		return 0, false
	}
	i := slices.Index(b.Preds, pred)
	if i < 0 || i >= len(phi.Edges) {
		return 0, false
	}
	c, ok := phi.Edges[i].(*ssa.Const)
	if !ok || c.Value == nil || c.Value.Kind() != constant.Bool {
		return 0, false
	}
	if constant.BoolVal(c.Value) != neg {
		return 0, true
	}
	return 1, true
}

// retestedAgainstParam reports whether w runs only where a value read
// again in its section, from a location section A read, agrees with a
// parameter that read ri was compared with too, on the side that leads
// to w: A's own test taken again on fresh state, double-checked locking
// around an entry copied out of a map:
//
//	c.mu.RLock(); e := c.cache[k]; c.mu.RUnlock()
//	if e.cfg != cfg { return }
//	c.mu.Lock(); defer c.mu.Unlock()
//	if e = c.cache[k]; e.cfg != cfg { return }
//	c.cache[k] = entry{err: err, done: e.done}
//
// Only for a write that carries nothing of the stale read: what it stores
// comes from the fresh one.
func (fs *funcState) retestedAgainstParam(ri int, w *writeSite, rereadsA func(Path) bool) bool {
	var guards []guard // w's version guards, found only once A's test is
	wb := w.instr.Block()
	for _, t := range fs.versionTestsOf() {
		if !slices.Contains(t.reads, ri) || !fs.dependsOn(wb, branch{t.block, t.side}) {
			continue
		}
		if guards == nil {
			if guards = fs.versionGuards(w); len(guards) == 0 {
				return false
			}
		}
		if slices.ContainsFunc(guards, func(g guard) bool {
			return g.read != ri && sameValue(g.against, t.param) && rereadsA(g.loc) && sameEntryKey(&fs.reads[ri], &fs.reads[g.read])
		}) {
			return true
		}
	}
	return false
}

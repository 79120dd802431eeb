package lockflow

import (
	"go/constant"
	"go/token"

	"golang.org/x/tools/go/ssa"
)

// A bound check on a collection's length keeps the bound only on the side
// where it found the length small: "n < max, so add" overfills once n has
// grown stale. On the side where it found the length large, the code does
// something else (evicts, reloads what an eviction may have dropped,
// refuses). A stale count that sends it there was larger than the
// collection is now, and what that side adds to the collection itself,
// racers included, it adds wherever the collection stands: the check does
// not hold it under the bound, so a smaller collection cannot be pushed
// past it. Such an insertion is no gap.
//
// It takes the very collection whose length was compared, loaded in
// section A (a helper's result may be a listing of some entries only),
// and only while every test of that length on the way to the write
// places it on the large side. A removal there stays a gap (two racers
// that saw the cache full both evict), and so do: emptiness, which is no
// bound ("someone is queued, so queue behind" loses its wakeup when the
// queue drained in between); a loop's test, an index against the length
// (each turn writes at the index, bringing back entries removed since).

// trend says how a value moves as the length of one collection grows,
// the rest being equal: for a condition, whether it can only turn true
// (up) or only turn false (down).
type trend uint8

const (
	trendNone    trend = iota // it does not depend on the length
	trendUp                   // it grows with the length (a condition turns true)
	trendDown                 // it shrinks (a condition turns false)
	trendUnknown              // anything else
)

func (t trend) flip() trend {
	switch t {
	case trendUp:
		return trendDown
	case trendDown:
		return trendUp
	}
	return t
}

// with joins the trends of two operands that move the same way (a sum).
func (t trend) with(u trend) trend {
	switch {
	case t == trendNone:
		return u
	case u == trendNone || t == u:
		return t
	}
	return trendUnknown
}

// growsWhereLarge reports whether w adds to, or replaces an entry of, the
// collection read ri loaded, and every branch on the way to w whose
// condition carries ri compares the collection's length with a bound, w
// lying on the side where the length was found large.
func (fs *funcState) growsWhereLarge(ri int, w *writeSite) bool {
	r := &fs.reads[ri]
	if r.value == nil || !w.collection || w.removal || w.takes {
		return false
	}
	if _, ok := r.instr.(ssa.CallInstruction); ok {
		// A helper's result: a listing it made (the entries that passed
		// a test) is no measure of the collection.
		return false
	}
	if w.loc.key() != r.loc.key() && !elementOf(w.loc, r.loc) {
		return false
	}
	ok, tested := true, false
	fs.eachDep(w.instr.Block(), func(d branch) {
		c := ifCond(d.block)
		if !ok || c == nil || !fs.taint[c].has(ri) {
			return
		}
		tested = true
		if scc := fs.components(); scc[d.block.Index] == scc[w.instr.Block().Index] {
			// A loop's test: an index against the length, each turn
			// writing at the index, is no bound.
			ok = false
			return
		}
		large := trendUp // the true side is taken when the length is large
		if d.succ == 1 {
			large = trendDown
		}
		ok = fs.lengthTrend(c, ri, r.value, 0) == large
	})
	return ok && tested
}

// lengthTrend says how v moves with len(coll), coll being what read ri
// loaded: through conversions, sums, differences, scaling by a positive
// constant, order comparisons (not with 0 or 1: an emptiness test),
// negation, and && or || kept in a variable.
func (fs *funcState) lengthTrend(v ssa.Value, ri int, coll ssa.Value, depth int) trend {
	if !fs.taint[v].has(ri) {
		return trendNone
	}
	if depth > 8 {
		return trendUnknown
	}
	of := func(x ssa.Value) trend { return fs.lengthTrend(x, ri, coll, depth+1) }
	switch x := v.(type) {
	case *ssa.Call:
		if lenOf(x) == coll {
			return trendUp
		}
	case *ssa.Convert:
		return of(x.X)
	case *ssa.ChangeType:
		return of(x.X)
	case *ssa.UnOp:
		if x.Op == token.NOT || x.Op == token.SUB {
			return of(x.X).flip()
		}
	case *ssa.BinOp:
		switch x.Op {
		case token.ADD:
			return of(x.X).with(of(x.Y))
		case token.SUB:
			return of(x.X).with(of(x.Y).flip())
		case token.MUL:
			if positiveConst(x.Y) {
				return of(x.X)
			}
			if positiveConst(x.X) {
				return of(x.Y)
			}
		case token.QUO:
			if positiveConst(x.Y) {
				return of(x.X)
			}
		case token.GTR, token.GEQ, token.LSS, token.LEQ:
			if atMostOne(x.X) || atMostOne(x.Y) {
				return trendUnknown
			}
			t := of(x.X).with(of(x.Y).flip())
			if x.Op == token.LSS || x.Op == token.LEQ {
				t = t.flip()
			}
			return t
		}
	case *ssa.Phi:
		// a && b or a || b kept in a variable: b's value wherever the
		// branches on a let b decide. Those branches must not depend on
		// the length.
		last := len(x.Edges) - 1
		if x.Comment != "&&" && x.Comment != "||" || last < 1 || fs.phiGate(x).has(ri) {
			return trendUnknown
		}
		for _, e := range x.Edges[:last] {
			if _, ok := e.(*ssa.Const); !ok {
				return trendUnknown
			}
		}
		return of(x.Edges[last])
	}
	return trendUnknown
}

func positiveConst(v ssa.Value) bool {
	c, ok := v.(*ssa.Const)
	return ok && c.Value != nil && (c.Value.Kind() == constant.Int || c.Value.Kind() == constant.Float) && constant.Sign(c.Value) > 0
}

// atMostOne reports whether v is a numeric constant no greater than 1: a
// length compared with it asks whether the collection is empty.
func atMostOne(v ssa.Value) bool {
	c, ok := v.(*ssa.Const)
	if !ok || c.Value == nil || (c.Value.Kind() != constant.Int && c.Value.Kind() != constant.Float) {
		return false
	}
	return constant.Compare(c.Value, token.LEQ, constant.MakeInt64(1))
}

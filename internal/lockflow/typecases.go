package lockflow

import (
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// Writes under a type case. An event dispatcher writes its state in the
// case of a type switch over the event it is handed (case *GuildCreate:
// add the guild); a caller that hands it an event of another concrete
// type (a *RateLimit) reaches none of those writes. A summary's write
// says which dynamic types of which parameter it runs for; a call whose
// argument is a value of another concrete type (or nil) makes no such
// write, and one that hands on a parameter of its own passes the
// condition up.

// typeReq says that a write happens only when parameter Param holds a
// value of one of the concrete types Types (named by types.TypeString).
type typeReq struct {
	Param int
	Types []string
}

// typeReqsAt returns the type conditions of fn's parameters that every
// path to block b passed: b lies inside the "ok" side of a comma-ok type
// assertion (a type switch's case) on a parameter, to a concrete type.
// The walk up the dominator tree is bounded.
func typeReqsAt(fn *ssa.Function, b *ssa.BasicBlock) []typeReq {
	var out []typeReq
	for d, depth := b, 0; d != nil && depth < 32; d, depth = d.Idom(), depth+1 {
		up := d.Idom()
		if up == nil || len(d.Preds) != 1 || d.Preds[0] != up || len(up.Succs) != 2 || up.Succs[0] != d || up.Succs[1] == d {
			continue
		}
		test, ok := up.Instrs[len(up.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		ok2, ok := test.Cond.(*ssa.Extract)
		if !ok || ok2.Index != 1 {
			continue
		}
		ta, ok := ok2.Tuple.(*ssa.TypeAssert)
		if !ok || !ta.CommaOk || types.IsInterface(ta.AssertedType) {
			continue
		}
		p, ok := stripInterfaceChange(ta.X).(*ssa.Parameter)
		if !ok || p.Parent() != fn {
			continue
		}
		out = append(out, typeReq{Param: paramIndex(fn, p), Types: []string{types.TypeString(ta.AssertedType, nil)}})
	}
	return out
}

// testsParamTypes reports whether fn asserts the type of a parameter of
// its own, comma-ok, to a concrete type: only then can its writes have
// type conditions of their own (typeReqsAt walks dominators per write).
func testsParamTypes(fn *ssa.Function) bool {
	for _, p := range fn.Params {
		uses := []ssa.Value{p}
		for len(uses) > 0 {
			v := uses[len(uses)-1]
			uses = uses[:len(uses)-1]
			if v.Referrers() == nil {
				continue
			}
			for _, ref := range *v.Referrers() {
				switch x := ref.(type) {
				case *ssa.TypeAssert:
					if x.CommaOk && !types.IsInterface(x.AssertedType) {
						return true
					}
				case *ssa.ChangeInterface:
					uses = append(uses, x)
				}
			}
		}
	}
	return false
}

// stripInterfaceChange looks through conversions between interface
// types.
func stripInterfaceChange(v ssa.Value) ssa.Value {
	for {
		c, ok := v.(*ssa.ChangeInterface)
		if !ok {
			return v
		}
		v = c.X
	}
}

// bindTypeReqs maps a callee write's type conditions onto a call made in
// fn: never is true when an argument cannot hold any of the types its
// condition names (a value of another concrete type, or nil); the
// conditions left are those on fn's own parameters handed on as they
// are. A condition on any other argument is dropped: it may hold.
func bindTypeReqs(fn *ssa.Function, cs *callSite, reqs []typeReq) (bound []typeReq, never bool) {
	for _, r := range reqs {
		v := cs.rootValue(relPath{param: r.Param})
		if v == nil {
			continue
		}
		switch x := stripInterfaceChange(v).(type) {
		case *ssa.MakeInterface:
			if !types.IsInterface(x.X.Type()) && !slices.Contains(r.Types, types.TypeString(x.X.Type(), nil)) {
				return nil, true
			}
		case *ssa.Const:
			if x.IsNil() {
				return nil, true
			}
		case *ssa.Parameter:
			if x.Parent() == fn {
				bound = append(bound, typeReq{Param: paramIndex(fn, x), Types: r.Types})
			}
		}
	}
	return bound, false
}

// eitherTypeReqs returns the conditions of a write that happens where
// either of two writes, with conditions a and b, does: on one parameter,
// any type either names (the cases of one type switch); none where they
// test different parameters, or one has none.
func eitherTypeReqs(a, b []typeReq) []typeReq {
	if len(a) != 1 || len(b) != 1 || a[0].Param != b[0].Param {
		return nil
	}
	types := slices.Clone(a[0].Types)
	for _, t := range b[0].Types {
		if !slices.Contains(types, t) {
			types = append(types, t)
		}
	}
	slices.Sort(types)
	return []typeReq{{Param: a[0].Param, Types: types}}
}

// throughInterfaces looks through conversions to and between interface
// types (in a generic body, a type parameter's value made an any is a
// ChangeType): the value that was put into the interface.
func throughInterfaces(v ssa.Value) ssa.Value {
	for {
		switch c := v.(type) {
		case *ssa.ChangeInterface:
			v = c.X
		case *ssa.MakeInterface:
			v = c.X
		case *ssa.ChangeType:
			if !types.IsInterface(c.Type()) {
				return v
			}
			v = c.X
		default:
			return v
		}
	}
}

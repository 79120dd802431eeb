package lockflow

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"go/types"
	"maps"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"
)

// RecheckFix re-establishes a stale decision at the top of section B, for
// the shape
//
//	mu.RLock(); v, ok := m[k]; mu.RUnlock()
//	if ok { return v }
//	... (work outside the lock)
//	mu.Lock() [defer mu.Unlock()]
//
// by inserting after the Lock (and its deferred Unlock) the same read and
// the same early return:
//
//	if v, ok := m[k]; ok { mu.Unlock(); return v }
//
// The same text re-checks a guard ("n := len(q.items)" tested by
// "if n >= q.max { return false }"), and a value a getter returned
// ("e := c.lookup(k)"), with the getter written out (getterAt). It is
// offered only when it is sure to
// compile and to move no call under the lock: the read and the early return
// are siblings of the Lock in one block, the read calls nothing but len or
// cap, and the return calls nothing unless the lock is released before it.
func RecheckFix(pass *analysis.Pass, src *Source, g *Gap) (analysis.SuggestedFix, bool) {
	if g.BInPlace || g.AInPlace || (g.Kind != LazyInit && g.Kind != Gated) {
		return analysis.SuggestedFix{}, false
	}
	setter, inlined := setterAt(pass, src, g)
	if g.BHelper && !inlined {
		return analysis.SuggestedFix{}, false
	}
	read := src.ReadExpr(g.Read)
	if read == nil {
		return analysis.SuggestedFix{}, false
	}
	assign, block := src.assignmentOf(read)
	if assign == nil || block == nil {
		return analysis.SuggestedFix{}, false
	}
	// The value looked up, or a getter's result (written out).
	var getter inlinedGetter
	ok := true
	if !hasCall(pass.TypesInfo, assign.Rhs[0], true) {
		getter.expr = render(pass, assign.Rhs[0])
	} else if call := src.CallAt(g.AOpen); !g.AHelper || call == nil || ast.Unparen(assign.Rhs[0]) != ast.Expr(call) {
		return analysis.SuggestedFix{}, false
	} else if getter, ok = getterAt(pass, src, call); !ok {
		return analysis.SuggestedFix{}, false
	}
	ai := indexOf(block.List, assign)
	li := indexOfCall(block.List, g.BOpen)
	if ai < 0 || li <= ai {
		return analysis.SuggestedFix{}, false
	}
	names := map[string]bool{}
	for _, l := range assign.Lhs {
		id, ok := l.(*ast.Ident)
		if !ok {
			return analysis.SuggestedFix{}, false
		}
		if id.Name != "_" {
			names[id.Name] = true
		}
	}
	// The early return on the value found.
	var early *ast.IfStmt
	for _, st := range block.List[ai+1 : li] {
		if ifs, ok := st.(*ast.IfStmt); ok && ifs.Init == nil && ifs.Else == nil && mentions(ifs.Cond, names) {
			early = ifs
			break
		}
	}
	if early == nil || len(early.Body.List) != 1 {
		return analysis.SuggestedFix{}, false
	}
	ret, ok := early.Body.List[0].(*ast.ReturnStmt)
	if !ok {
		return analysis.SuggestedFix{}, false
	}

	// Nothing between the lookup and the Lock may redeclare what the
	// lookup or the return refer to.
	used := identNames(assign.Rhs[0], early.Cond, ret)
	for _, st := range block.List[ai+1 : li] {
		if declares(pass.TypesInfo, st, used) {
			return analysis.SuggestedFix{}, false
		}
	}
	// Names the re-check would declare but not use become blanks.
	usedAfter := identNames(early.Cond, ret)
	var lhs []string
	fresh := false
	for _, l := range assign.Lhs {
		n := l.(*ast.Ident).Name
		if n != "_" && usedAfter[n] {
			fresh = true
			lhs = append(lhs, n)
		} else {
			lhs = append(lhs, "_")
		}
	}
	if !fresh {
		return analysis.SuggestedFix{}, false
	}
	// Nor assign what the re-check reads without declaring it anew (the
	// key looked up, a bound): it would look up another entry than A did.
	kept := maps.Clone(used)
	for _, n := range lhs {
		delete(kept, n)
	}
	for _, st := range block.List[ai+1 : li] {
		if st != early && assigns(st, kept) {
			return analysis.SuggestedFix{}, false
		}
	}

	lockStmt := block.List[li]
	recv := src.Receiver(g.BOpen)
	insertAfter, deferred := afterLock(block, li, recv)
	if inlined {
		recv, deferred = setter.lock, false
	}
	if getter.lock != "" && getter.lock != recv {
		return analysis.SuggestedFix{}, false
	}
	// Under a deferred unlock the return's operands are evaluated with the
	// lock held: they must not call anything.
	if deferred && callsUnderLock(pass, ret) {
		return analysis.SuggestedFix{}, false
	}
	head := fmt.Sprintf("%s := %s; %s", strings.Join(lhs, ", "), getter.expr, render(pass, early.Cond))
	text := recheckText(pass, lockStmt.Pos(), head, recv, deferred, ret)
	if inlined {
		return setter.fix(pass, "write under the lock here, and re-check there first", text), true
	}
	return insertionAfter(pass, insertAfter, "re-check under the write lock", text), true
}

// recheckText is the re-check inserted after a Lock (indented as the
// statement at pos): if head, release the lock unless its release is
// deferred, and leave by exit.
func recheckText(pass *analysis.Pass, pos token.Pos, head, recv string, deferred bool, exit ast.Stmt) string {
	indent := indentation(pass, pos)
	var b strings.Builder
	fmt.Fprintf(&b, "\n%sif %s {\n", indent, head)
	if !deferred {
		fmt.Fprintf(&b, "%s\t%s.Unlock()\n", indent, recv)
	}
	fmt.Fprintf(&b, "%s\t%s\n%s}", indent, render(pass, exit), indent)
	return b.String()
}

// callsUnderLock reports whether the way out, taken under a deferred
// Unlock (with the lock held), is not a return or evaluates a call.
func callsUnderLock(pass *analysis.Pass, exit ast.Stmt) bool {
	ret, ok := exit.(*ast.ReturnStmt)
	if !ok {
		return true
	}
	for _, r := range ret.Results {
		if hasCall(pass.TypesInfo, r, false) {
			return true
		}
	}
	return false
}

// afterLock returns the statement a re-check goes after, for the Lock
// at block.List[li]: its deferred Unlock if one follows (deferred), else
// the Lock.
func afterLock(block *ast.BlockStmt, li int, recv string) (after ast.Stmt, deferred bool) {
	if li+1 < len(block.List) {
		if d, ok := block.List[li+1].(*ast.DeferStmt); ok && isUnlockOf(d.Call, recv) {
			return d, true
		}
	}
	return block.List[li], false
}

// insertionAfter is the fix inserting text at the end of st's line.
func insertionAfter(pass *analysis.Pass, st ast.Stmt, message, text string) analysis.SuggestedFix {
	at := lineEnd(pass, st.End())
	return analysis.SuggestedFix{
		Message:   message,
		TextEdits: []analysis.TextEdit{{Pos: at, End: at, NewText: []byte(text)}},
	}
}

// exitRecheckFix re-establishes a stale decision at the top of section B
// for the shape where section A itself leaves early:
//
//	mu.RLock()
//	if b.running { mu.RUnlock(); return nil }
//	mu.RUnlock()
//	... (work outside the lock)
//	mu.Lock() [defer mu.Unlock()]
//
// by inserting after the Lock (and its deferred Unlock) the same test and
// the same way out, releasing the write lock instead of the read lock (or
// nothing, under a deferred Unlock):
//
//	if b.running { mu.Unlock(); return nil }
//
// The conditions are RecheckFix's: the test and the Lock are siblings in
// one block, the test calls nothing but len or cap, nothing from A's Lock
// to B's declares or assigns what the test or the way out refer to (the
// copy would test a value read in A, or another), and under a deferred
// Unlock the return calls nothing. The way out is the release of
// section A and then a return (or, without a deferred Unlock, a continue
// or break, which mean the same in the same block).
func exitRecheckFix(pass *analysis.Pass, src *Source, g *Gap) (analysis.SuggestedFix, bool) {
	if g.AHelper || g.BInPlace || g.AInPlace || (g.Kind != LazyInit && g.Kind != Gated) {
		return analysis.SuggestedFix{}, false
	}
	recv := src.Receiver(g.BOpen)
	setter, inlined := setterAt(pass, src, g)
	switch {
	case inlined:
		recv = setter.lock
	case g.BHelper:
		return analysis.SuggestedFix{}, false
	case src.Callee(g.BOpen) != recv+".Lock":
		recv = "" // the way out written releases a write lock
	}
	if recv == "" || recv != src.Receiver(g.AOpen) {
		// The way out written releases a write lock.
		return analysis.SuggestedFix{}, false
	}
	read := src.ReadExpr(g.Read)
	if read == nil {
		return analysis.SuggestedFix{}, false
	}
	var test *ast.IfStmt
	var block *ast.BlockStmt
	path := src.Enclosing(read.Pos())
	for i, n := range path {
		ifs, ok := n.(*ast.IfStmt)
		if !ok {
			continue
		}
		if !tests(ifs, read) {
			// The read is in the branch taken, not the test.
			return analysis.SuggestedFix{}, false
		}
		if i+1 < len(path) {
			block, _ = path[i+1].(*ast.BlockStmt)
		}
		test = ifs
		break
	}
	if test == nil || block == nil || test.Else != nil || len(test.Body.List) != 2 ||
		hasCall(pass.TypesInfo, test.Cond, true) || (test.Init != nil && hasCall(pass.TypesInfo, test.Init, true)) {
		return analysis.SuggestedFix{}, false
	}
	// The way out releases section A's lock, then leaves.
	release, ok := test.Body.List[0].(*ast.ExprStmt)
	if !ok {
		return analysis.SuggestedFix{}, false
	}
	if c, ok := release.X.(*ast.CallExpr); !ok || !isReleaseOf(c, recv) {
		return analysis.SuggestedFix{}, false
	}
	exit := test.Body.List[1]
	if !leavesBlock(exit) {
		return analysis.SuggestedFix{}, false
	}
	// A's Lock, the test, A's release and B's Lock, in that order in one
	// block.
	ti := indexOf(block.List, test)
	ai, ri, li := -1, -1, -1
	for i, st := range block.List {
		if es, ok := st.(*ast.ExprStmt); ok {
			if c, ok := es.X.(*ast.CallExpr); ok {
				switch {
				case c.Lparen == g.AOpen:
					ai = i
				case c.Lparen == g.BOpen:
					li = i
				case ri < 0 && i > ti && isReleaseOf(c, recv):
					ri = i
				}
			}
		}
	}
	if ai < 0 || ti <= ai || ri <= ti || li <= ri {
		return analysis.SuggestedFix{}, false
	}
	// What the test's Init declares is its own (it is declared again in
	// the copy); the rest must mean the same at the copy.
	used := identNames(test.Cond, exit)
	if test.Init != nil {
		maps.Copy(used, identNames(test.Init))
		if init, ok := test.Init.(*ast.AssignStmt); ok && init.Tok == token.DEFINE {
			rhs := identNames(exprNodes(init.Rhs)...)
			for _, l := range init.Lhs {
				if id, ok := l.(*ast.Ident); ok && !rhs[id.Name] {
					delete(used, id.Name)
				}
			}
		}
	}
	// Nor may section A set what the test reads (n := len(q.items) tested
	// as n >= q.max): the copy would test the value A read.
	for _, st := range block.List[ai+1 : li] {
		if st != test && (declares(pass.TypesInfo, st, used) || assigns(st, used)) {
			return analysis.SuggestedFix{}, false
		}
	}
	if declaresCloser(pass, block.List[ri+1:li]) {
		return analysis.SuggestedFix{}, false
	}
	lockStmt := block.List[li]
	insertAfter, deferred := afterLock(block, li, recv)
	if inlined {
		deferred = false
	}
	if deferred && callsUnderLock(pass, exit) {
		return analysis.SuggestedFix{}, false
	}
	head := render(pass, test.Cond)
	if test.Init != nil {
		head = render(pass, test.Init) + "; " + head
	}
	text := recheckText(pass, lockStmt.Pos(), head, recv, deferred, exit)
	if inlined {
		return setter.fix(pass, "write under the lock here, and test again there first", text), true
	}
	return insertionAfter(pass, insertAfter, "test again under the write lock", text), true
}

// getterTestFix re-establishes a stale decision taken by calling a getter
// that locks for itself, tested by an if that leaves:
//
//	if s.Len() >= s.limit {
//		return false
//	}
//	... (work outside the lock)
//	s.mu.Lock()
//
// by inserting after the Lock the same test with the getter written out
// (getterAt) and the same way out, releasing the lock first unless its
// release is deferred:
//
//	if len(s.items) >= s.limit {
//		s.mu.Unlock()
//		return false
//	}
//
// Section B may be a setter's call, written out (setterAt). The test has
// no Init and calls nothing but the getter (len and cap aside); its body
// is one return, continue or break; the if and B are siblings in one
// block, with nothing between them declaring or assigning what the test
// or the way out refer to; the getter takes the lock B takes; under a
// deferred Unlock the return calls nothing.
func getterTestFix(pass *analysis.Pass, src *Source, g *Gap) (analysis.SuggestedFix, bool) {
	none := analysis.SuggestedFix{}
	if !g.AHelper || g.AInPlace || g.BInPlace || (g.Kind != LazyInit && g.Kind != Gated) {
		return none, false
	}
	call := src.CallAt(g.AOpen)
	if call == nil {
		return none, false
	}
	var test *ast.IfStmt
	var block *ast.BlockStmt
	path := src.Enclosing(call.Pos())
	for i, n := range path {
		if ifs, ok := n.(*ast.IfStmt); ok {
			if i+1 < len(path) {
				block, _ = path[i+1].(*ast.BlockStmt)
			}
			test = ifs
			break
		}
	}
	if test == nil || block == nil || test.Else != nil || len(test.Body.List) != 1 || !tests(test, call) {
		return none, false
	}
	// The getter's value tested, or declared by the Init and tested.
	var declared []string
	if test.Init != nil {
		init, ok := test.Init.(*ast.AssignStmt)
		if !ok || init.Tok != token.DEFINE || len(init.Rhs) != 1 || ast.Unparen(init.Rhs[0]) != ast.Expr(call) {
			return none, false
		}
		for _, l := range init.Lhs {
			id, ok := l.(*ast.Ident)
			if !ok {
				return none, false
			}
			declared = append(declared, id.Name)
		}
	}
	others := false
	ast.Inspect(test.Cond, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok && c != call && hasCall(pass.TypesInfo, c, true) {
			others = true
		}
		return !others && n != ast.Node(call)
	})
	if others {
		return none, false
	}
	exit := test.Body.List[0]
	if !leavesBlock(exit) {
		return none, false
	}
	getter, ok := getterAt(pass, src, call)
	if !ok || getter.commaOk && len(declared) != 2 {
		return none, false
	}
	// B: a Lock, or a setter's call, later in the same block.
	ti := indexOf(block.List, test)
	li := indexOfCall(block.List, g.BOpen)
	if ti < 0 || li <= ti {
		return none, false
	}
	setter, inlined := setterAt(pass, src, g)
	recv := src.Receiver(g.BOpen)
	switch {
	case inlined:
		recv = setter.lock
	case g.BHelper || src.Callee(g.BOpen) != recv+".Lock":
		return none, false
	}
	if recv != getter.lock {
		return none, false
	}
	// What the Init declares is declared again by the copy; the rest
	// must mean the same there.
	used := identNames(test.Cond, exit, call)
	for _, n := range declared {
		delete(used, n)
	}
	for _, st := range block.List[ti+1 : li] {
		if declares(pass.TypesInfo, st, used) || assigns(st, used) {
			return none, false
		}
	}
	if declaresCloser(pass, block.List[ti+1:li]) {
		return none, false
	}
	insertAfter, deferred := afterLock(block, li, recv)
	if inlined {
		deferred = false
	}
	if deferred && callsUnderLock(pass, exit) {
		return none, false
	}
	var cond string
	if test.Init != nil {
		cond = strings.Join(declared, ", ") + " := " + getter.expr + "; " + text(pass, test.Cond.Pos(), test.Cond.End())
		if _, err := parser.ParseExpr(text(pass, test.Cond.Pos(), test.Cond.End())); err != nil {
			return none, false
		}
	} else {
		cond = text(pass, test.Cond.Pos(), call.Pos()) + getter.expr + text(pass, call.End(), test.Cond.End())
		if _, err := parser.ParseExpr(cond); err != nil {
			return none, false
		}
	}
	text := recheckText(pass, block.List[li].Pos(), cond, recv, deferred, exit)
	if inlined {
		return setter.fix(pass, "write under the lock here, and test again there first", text), true
	}
	return insertionAfter(pass, insertAfter, "test again under the write lock", text), true
}

// leavesBlock reports whether st is a return, a continue or a break: a way
// out that means the same repeated later in the same block.
func leavesBlock(st ast.Stmt) bool {
	switch st := st.(type) {
	case *ast.ReturnStmt:
		return true
	case *ast.BranchStmt:
		return st.Tok == token.CONTINUE || st.Tok == token.BREAK
	}
	return false
}

// indexOfCall returns the index in list of the statement that is the
// call whose Lparen is at lparen (a section's Lock, or a helper's call),
// or -1.
func indexOfCall(list []ast.Stmt, lparen token.Pos) int {
	for i, st := range list {
		if es, ok := st.(*ast.ExprStmt); ok {
			if c, ok := es.X.(*ast.CallExpr); ok && c.Lparen == lparen {
				return i
			}
		}
	}
	return -1
}

// tests reports whether e lies in the Init or the condition of ifs.
func tests(ifs *ast.IfStmt, e ast.Node) bool {
	in := func(n ast.Node) bool { return n.Pos() <= e.Pos() && e.End() <= n.End() }
	return ifs.Init != nil && in(ifs.Init) || in(ifs.Cond)
}

// declaresCloser reports whether one of stmts declares a variable whose
// type has a Close method (a connection dialled, a file opened between
// the sections): leaving by the re-check would drop it unclosed, where
// the code as written keeps it.
func declaresCloser(pass *analysis.Pass, stmts []ast.Stmt) bool {
	found := false
	for _, st := range stmts {
		ast.Inspect(st, func(n ast.Node) bool {
			if _, lit := n.(*ast.FuncLit); lit {
				return false
			}
			if id, ok := n.(*ast.Ident); ok {
				if v, ok := pass.TypesInfo.Defs[id].(*types.Var); ok && hasClose(v.Type()) {
					found = true
				}
			}
			return !found
		})
	}
	return found
}

func hasClose(t types.Type) bool {
	// Addressable: a method of *T counts for a variable of type T.
	obj, _, _ := types.LookupFieldOrMethod(t, true, nil, "Close")
	_, isFunc := obj.(*types.Func)
	return isFunc
}

func exprNodes(es []ast.Expr) []ast.Node {
	out := make([]ast.Node, len(es))
	for i, e := range es {
		out[i] = e
	}
	return out
}

// isReleaseOf reports whether c is recv.Unlock() or recv.RUnlock().
func isReleaseOf(c *ast.CallExpr, recv string) bool {
	sel, ok := c.Fun.(*ast.SelectorExpr)
	return ok && (sel.Sel.Name == "Unlock" || sel.Sel.Name == "RUnlock") && len(c.Args) == 0 && typesExpr(sel.X) == recv
}

// assigns reports whether st, at any depth, assigns one of names (as a
// plain name: a field or element of it is not the name).
func assigns(st ast.Stmt, names map[string]bool) bool {
	found := false
	ast.Inspect(st, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				if id, ok := ast.Unparen(l).(*ast.Ident); ok && names[id.Name] {
					found = true
				}
			}
		case *ast.IncDecStmt:
			if id, ok := ast.Unparen(n.X).(*ast.Ident); ok && names[id.Name] {
				found = true
			}
		case *ast.UnaryExpr:
			// &x handed on may be written through.
			if id, ok := ast.Unparen(n.X).(*ast.Ident); ok && n.Op == token.AND && names[id.Name] {
				found = true
			}
		case *ast.RangeStmt:
			for _, e := range []ast.Expr{n.Key, n.Value} {
				if id, ok := e.(*ast.Ident); ok && names[id.Name] {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// assignmentOf returns the assignment whose one right-hand side holds the
// read expression (v, ok := m[k]; n := len(q.items)), and the block the
// assignment is in; nils when the read is not so assigned.
func (s *Source) assignmentOf(read ast.Expr) (assign *ast.AssignStmt, block *ast.BlockStmt) {
	for _, n := range s.Enclosing(read.Pos()) {
		switch n := n.(type) {
		case *ast.AssignStmt:
			if assign == nil && len(n.Rhs) == 1 && n.Rhs[0].Pos() <= read.Pos() && read.End() <= n.Rhs[0].End() {
				assign = n
			}
		case *ast.BlockStmt:
			if assign != nil && block == nil {
				block = n
			}
		}
	}
	return assign, block
}

func indexOf(list []ast.Stmt, st ast.Stmt) int {
	for i, s := range list {
		if s == st {
			return i
		}
	}
	return -1
}

// hasCall reports whether n calls anything (with allowLen, len and cap
// do not count) or holds a function literal. A conversion is no call (but
// one to an array, which panics on a short slice).
func hasCall(info *types.Info, n ast.Node, allowLen bool) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			fun := ast.Unparen(n.Fun)
			if tv, ok := info.Types[fun]; ok && tv.IsType() {
				if _, array := tv.Type.Underlying().(*types.Array); !array {
					break
				}
			}
			id, ok := fun.(*ast.Ident)
			if !ok || !allowLen {
				found = true
				break
			}
			if b, ok := info.Uses[id].(*types.Builtin); !ok || b.Name() != "len" && b.Name() != "cap" {
				found = true
			}
		case *ast.FuncLit:
			found = true
		}
		return !found
	})
	return found
}

func mentions(n ast.Node, names map[string]bool) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && names[id.Name] {
			found = true
		}
		return !found
	})
	return found
}

func identNames(nodes ...ast.Node) map[string]bool {
	out := map[string]bool{}
	for _, n := range nodes {
		ast.Inspect(n, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				out[id.Name] = true
			}
			return true
		})
	}
	return out
}

// declares reports whether st declares, at its own level, one of names
// (a := that only assigns a name declared before declares nothing).
func declares(info *types.Info, st ast.Stmt, names map[string]bool) bool {
	switch st := st.(type) {
	case *ast.AssignStmt:
		if st.Tok == token.DEFINE {
			for _, l := range st.Lhs {
				if id, ok := l.(*ast.Ident); ok && names[id.Name] && info.Defs[id] != nil {
					return true
				}
			}
		}
	case *ast.DeclStmt:
		found := false
		ast.Inspect(st, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && names[id.Name] {
				found = true
			}
			return !found
		})
		return found
	case *ast.LabeledStmt:
		return declares(info, st.Stmt, names)
	}
	return false
}

func isUnlockOf(c *ast.CallExpr, recv string) bool {
	sel, ok := c.Fun.(*ast.SelectorExpr)
	return ok && sel.Sel.Name == "Unlock" && len(c.Args) == 0 && typesExpr(sel.X) == recv
}

func typesExpr(e ast.Expr) string {
	var b bytes.Buffer
	printer.Fprint(&b, token.NewFileSet(), e)
	return b.String()
}

func render(pass *analysis.Pass, n ast.Node) string {
	var b bytes.Buffer
	if err := printer.Fprint(&b, pass.Fset, n); err != nil {
		return ""
	}
	return b.String()
}

// indentation returns the leading white space of the line holding pos.
func indentation(pass *analysis.Pass, pos token.Pos) string {
	tf := pass.Fset.File(pos)
	if tf == nil {
		return "\t"
	}
	content, err := pass.ReadFile(tf.Name())
	if err != nil {
		return "\t"
	}
	start := tf.Offset(tf.LineStart(tf.Line(pos)))
	end := start
	for end < len(content) && (content[end] == ' ' || content[end] == '\t') {
		end++
	}
	return string(content[start:end])
}

// lineEnd returns the position of the end of the line holding pos, so an
// insertion lands after any trailing comment.
func lineEnd(pass *analysis.Pass, pos token.Pos) token.Pos {
	tf := pass.Fset.File(pos)
	if tf == nil {
		return pos
	}
	line := tf.Line(pos)
	if line >= tf.LineCount() {
		return token.Pos(tf.Base() + tf.Size())
	}
	return tf.LineStart(line+1) - 1
}

// loadOrStoreFix turns the Store that fills a sync.Map miss into a
// LoadOrStore that keeps the entry a racer stored first, and makes the
// caller go on with that entry instead of its own value:
//
//	m.Store(k, v)
//
// becomes
//
//	if actual, loaded := m.LoadOrStore(k, v); loaded {
//		v = actual.(T)
//	}
//
// It is offered when the Store is a statement of its own and v a local
// variable whose type can be named in the file.
func loadOrStoreFix(pass *analysis.Pass, src *Source, g *Gap) (analysis.SuggestedFix, bool) {
	if g.Kind != LazyInit || g.OrStale || !g.MissOnly {
		// An entry found stale (expired), or not looked up on some way
		// to the Store (a changed file's), is one to replace:
		// LoadOrStore would keep it for good.
		return analysis.SuggestedFix{}, false
	}
	call := src.CallAt(g.BOpen)
	if call == nil || len(call.Args) != 2 {
		return analysis.SuggestedFix{}, false
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Store" {
		return analysis.SuggestedFix{}, false
	}
	_, found, ok := loadOrStoreOf(pass, call)
	if !ok {
		return analysis.SuggestedFix{}, false
	}
	var stmt *ast.ExprStmt
	path := src.Enclosing(call.Pos())
	for _, n := range path {
		if es, ok := n.(*ast.ExprStmt); ok && es.X == call {
			stmt = es
		}
	}
	if g.Claim {
		return claimLoadOrStoreFix(pass, src, g, stmt, sel.X, call)
	}
	// A hit that leaves with what it found (a memo) goes on below.
	if presenceOnly(pass, src, g) {
		if fix, ok := claimLoadOrStoreFix(pass, src, g, stmt, sel.X, call); ok {
			return fix, true
		}
	}
	body, _ := innermostBody(path)
	id, ok := call.Args[1].(*ast.Ident)
	if stmt == nil || !ok || id.Name == "actual" || id.Name == "loaded" {
		return analysis.SuggestedFix{}, false
	}
	v, ok := pass.TypesInfo.Uses[id].(*types.Var)
	if !ok || v.Parent() == nil || v.Parent() == v.Pkg().Scope() || v.IsField() {
		return analysis.SuggestedFix{}, false
	}
	if before, _, after := usesAround(pass, body, stmt, v); !before || !after {
		// Something done with the caller's own value (counted on,
		// registered) would be lost with it, or the entry kept handed
		// on again (a job queued twice).
		return analysis.SuggestedFix{}, false
	}
	assign := "actual"
	switch {
	case types.AssignableTo(found, v.Type()):
		// A typed wrapper's LoadOrStore, or a variable of type any.
	case types.IsInterface(found):
		typ, ok := TypeInFile(pass, src.File(call.Pos()), v.Type())
		if !ok {
			return analysis.SuggestedFix{}, false
		}
		assign = "actual.(" + typ + ")"
	default:
		return analysis.SuggestedFix{}, false
	}
	var b bytes.Buffer
	if err := printer.Fprint(&b, pass.Fset, sel.X); err != nil {
		return analysis.SuggestedFix{}, false
	}
	var key bytes.Buffer
	if err := printer.Fprint(&key, pass.Fset, call.Args[0]); err != nil {
		return analysis.SuggestedFix{}, false
	}
	indent := strings.Repeat("\t", pass.Fset.Position(stmt.Pos()).Column-1)
	text := fmt.Sprintf("if actual, loaded := %s.LoadOrStore(%s, %s); loaded {\n%s\t%s = %s\n%s}",
		b.String(), key.String(), id.Name, indent, id.Name, assign, indent)
	return analysis.SuggestedFix{
		Message:   "store with LoadOrStore and keep the entry found",
		TextEdits: []analysis.TextEdit{{Pos: stmt.Pos(), End: stmt.End(), NewText: []byte(text)}},
	}, true
}

// claimLoadOrStoreFix is loadOrStoreFix for a claim (Gap.Claim): the
// caller stores what it was handed, so the entry a racer stored is not
// one to go on with; where the Load found one, the caller left. The Store
// becomes a LoadOrStore that leaves the same way when it finds an entry:
//
//	if _, loaded := d.holder.LoadOrStore(desk, person); loaded {
//		return errTaken
//	}
//
// offered where that way out is a return of constants, nil or package
// names alone (what it returns means the same at the Store).
func claimLoadOrStoreFix(pass *analysis.Pass, src *Source, g *Gap, stmt *ast.ExprStmt, m ast.Expr, call *ast.CallExpr) (analysis.SuggestedFix, bool) {
	hit := hitReturn(src, g)
	if stmt == nil || hit == nil || hasCall(pass.TypesInfo, call.Args[0], true) || hasCall(pass.TypesInfo, call.Args[1], true) ||
		!returnsConstants(pass, src, hit) {
		return analysis.SuggestedFix{}, false
	}
	indent := indentation(pass, stmt.Pos())
	text := fmt.Sprintf("if _, loaded := %s.LoadOrStore(%s, %s); loaded {\n%s\t%s\n%s}",
		render(pass, m), render(pass, call.Args[0]), render(pass, call.Args[1]), indent, render(pass, hit), indent)
	return analysis.SuggestedFix{
		Message:   "store with LoadOrStore, and leave as the lookup does when an entry is there",
		TextEdits: []analysis.TextEdit{{Pos: stmt.Pos(), End: stmt.End(), NewText: []byte(text)}},
	}, true
}

// presenceOnly reports whether the branch taken where the lookup found
// an entry is a return of constants, nil or package names and nothing
// else: the caller only asked whether the key is there (a fingerprint
// already queued), so the entry a racer stored is one to leave on as the
// lookup would, not one to go on with (claimLoadOrStoreFix).
func presenceOnly(pass *analysis.Pass, src *Source, g *Gap) bool {
	hit := hitReturn(src, g)
	if hit == nil {
		return false
	}
	path := src.Enclosing(hit.Pos())
	if len(path) < 2 {
		return false
	}
	body, ok := path[1].(*ast.BlockStmt)
	return ok && len(body.List) == 1 && returnsConstants(pass, src, hit)
}

// returnsConstants reports whether ret returns constants, nil or package
// names alone: what it returns means the same wherever it is repeated.
// Not a bare return of results set on the way.
func returnsConstants(pass *analysis.Pass, src *Source, ret *ast.ReturnStmt) bool {
	for _, r := range ret.Results {
		if !constantOrNil(pass, r) && !packageName(pass, r) {
			return false
		}
	}
	return len(ret.Results) > 0 || !namedResults(src, ret)
}

// packageName reports whether e names a package-level variable or
// constant (errTaken, io.EOF).
func packageName(pass *analysis.Pass, e ast.Expr) bool {
	var id *ast.Ident
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		id = x
	case *ast.SelectorExpr:
		if _, ok := pass.TypesInfo.Uses[rootIdent(x.X)].(*types.PkgName); !ok {
			return false
		}
		id = x.Sel
	default:
		return false
	}
	obj := pass.TypesInfo.Uses[id]
	return obj != nil && obj.Pkg() != nil && obj.Parent() == obj.Pkg().Scope()
}

// loadOrStoreOf finds, for a call recv.Store(k, v), the LoadOrStore
// method of recv's type (sync.Map's, or a typed wrapper's of the shape
// LoadOrStore(K, V) (V, bool)): recv, and the type of the value it hands
// back.
func loadOrStoreOf(pass *analysis.Pass, call *ast.CallExpr) (ast.Expr, types.Type, bool) {
	recv := methodReceiver(pass, call)
	if recv == nil {
		return nil, nil, false
	}
	t := pass.TypesInfo.TypeOf(recv)
	if t == nil {
		return nil, nil, false
	}
	obj, _, _ := types.LookupFieldOrMethod(t, true, pass.Pkg, "LoadOrStore")
	method, ok := obj.(*types.Func)
	if !ok {
		return nil, nil, false
	}
	sig := method.Type().(*types.Signature)
	if sig.Params().Len() != 2 || sig.Results().Len() != 2 || !types.Identical(sig.Results().At(1).Type(), types.Typ[types.Bool]) {
		return nil, nil, false
	}
	return recv, sig.Results().At(0).Type(), true
}

// methodReceiver returns the receiver expression of a method call
// (recv.M(...)), or nil.
func methodReceiver(pass *analysis.Pass, call *ast.CallExpr) ast.Expr {
	if call == nil {
		return nil
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	if selection, ok := pass.TypesInfo.Selections[sel]; !ok || selection.Kind() != types.MethodVal {
		return nil
	}
	return sel.X
}

// TypeInFile writes t as the file names it: its own package's types bare,
// others through the file's imports; false when one is not imported (or
// there is no file).
func TypeInFile(pass *analysis.Pass, file *ast.File, t types.Type) (string, bool) {
	if file == nil {
		return "", false
	}
	ok := true
	qualify := func(p *types.Package) string {
		if p == pass.Pkg {
			return ""
		}
		for _, imp := range file.Imports {
			if path, err := strconv.Unquote(imp.Path.Value); err != nil || path != p.Path() {
				continue
			}
			if imp.Name != nil {
				if imp.Name.Name == "_" || imp.Name.Name == "." {
					break
				}
				return imp.Name.Name
			}
			return p.Name()
		}
		ok = false
		return p.Name()
	}
	s := types.TypeString(t, qualify)
	return s, ok
}

// keepFoundFix makes the store that fills a map miss keep the entry a
// racer stored since, and the caller go on with that entry, as
// loadOrStoreFix does for a sync.Map:
//
//	m[k] = v
//
// becomes
//
//	if existing, ok := m[k]; ok {
//		v = existing
//	} else {
//		m[k] = v
//	}
//
// It is offered where the re-check at the top of the section cannot be
// (RecheckFix): the store is a statement of its own, m and k call
// nothing, and v is a local variable of the map's element type that the
// function, after the store, only returns (or builds its results from).
// A v handed on anywhere else (started, registered, counted) would,
// after the fix, be the racer's entry handed on a second time, or the
// caller's own work lost; no fix then.
func keepFoundFix(pass *analysis.Pass, src *Source, g *Gap) (analysis.SuggestedFix, bool) {
	if g.Kind != LazyInit || g.Claim || g.Removal || g.OrStale || !g.MissOnly || g.Emptiness || g.BHelper || g.Picked || !g.Write.IsValid() {
		return analysis.SuggestedFix{}, false
	}
	var store *ast.AssignStmt
	inList := false // the store is a statement of a block or a case
	path := src.Enclosing(g.Write)
	body, depth := innermostBody(path)
	for i, n := range path[:max(depth, 0)] {
		if store != nil && path[i-1] == ast.Node(store) {
			// The node holding the store says where it stands (an if
			// statement's init cannot take an if statement).
			switch n.(type) {
			case *ast.BlockStmt, *ast.CaseClause, *ast.CommClause:
				inList = true
			}
		}
		switch n := n.(type) {
		case *ast.AssignStmt:
			if store == nil {
				store = n
			}
		case *ast.ForStmt, *ast.RangeStmt:
			return analysis.SuggestedFix{}, false // the fix would need to know the next round
		}
	}
	if store == nil || body == nil || !inList || store.Tok != token.ASSIGN || len(store.Lhs) != 1 || len(store.Rhs) != 1 {
		return analysis.SuggestedFix{}, false
	}
	index, ok := ast.Unparen(store.Lhs[0]).(*ast.IndexExpr)
	if !ok || index.Lbrack != g.Write || hasCall(pass.TypesInfo, index, false) {
		return analysis.SuggestedFix{}, false
	}
	mt, ok := types.Unalias(pass.TypesInfo.TypeOf(index.X)).Underlying().(*types.Map)
	if !ok {
		return analysis.SuggestedFix{}, false
	}
	id, ok := ast.Unparen(store.Rhs[0]).(*ast.Ident)
	if !ok {
		return analysis.SuggestedFix{}, false
	}
	v, ok := pass.TypesInfo.Uses[id].(*types.Var)
	if !ok || v.IsField() || v.Parent() == nil || v.Parent() == v.Pkg().Scope() || !types.AssignableTo(mt.Elem(), v.Type()) {
		return analysis.SuggestedFix{}, false
	}
	names := identNames(store)
	if names["existing"] || names["ok"] {
		return analysis.SuggestedFix{}, false
	}
	if before, after, _ := usesAround(pass, body, store, v); !before || !after {
		return analysis.SuggestedFix{}, false
	}
	indent := indentation(pass, store.Pos())
	entry := render(pass, index)
	text := fmt.Sprintf("if existing, ok := %s; ok {\n%s\t%s = existing\n%s} else {\n%s\t%s = %s\n%s}",
		entry, indent, id.Name, indent, indent, entry, id.Name, indent)
	goesOn := usedAfter(pass, body, store, v)
	if !goesOn {
		// The caller does not go on with the entry: keeping the racer's
		// only skips the store, which is right where the caller then
		// leaves as a hit does (return nil, both ways); where it leaves
		// otherwise, it would report success on a conflict (a seat
		// booked by another, which a hit reports as taken).
		if !leavesAsOnHit(pass, src, g, store) {
			return analysis.SuggestedFix{}, false
		}
		text = fmt.Sprintf("if _, ok := %s; !ok {\n%s\t%s = %s\n%s}", entry, indent, entry, id.Name, indent)
	}
	message := "store only if still missing, and keep the entry found"
	if !goesOn {
		message = "store only if still missing"
	}
	return analysis.SuggestedFix{
		Message:   message,
		TextEdits: []analysis.TextEdit{{Pos: store.Pos(), End: store.End(), NewText: []byte(text)}},
	}, true
}

// leavesAsOnHit reports whether the function, right after the store
// (and the unlocks following it), returns exactly what it returns where
// the lookup found the entry: the same constants, or nothing.
func leavesAsOnHit(pass *analysis.Pass, src *Source, g *Gap, store ast.Stmt) bool {
	hit := hitReturn(src, g)
	after := returnAfter(src, store)
	if hit == nil || after == nil || len(hit.Results) != len(after.Results) {
		return false
	}
	if len(hit.Results) == 0 && namedResults(src, store) {
		return false // bare returns of results set on the way
	}
	for i, r := range hit.Results {
		if !constantOrNil(pass, r) || !constantOrNil(pass, after.Results[i]) || render(pass, r) != render(pass, after.Results[i]) {
			return false
		}
	}
	return true
}

// namedResults reports whether the function holding st names results.
func namedResults(src *Source, st ast.Stmt) bool {
	for _, n := range src.Enclosing(st.Pos()) {
		var ft *ast.FuncType
		switch f := n.(type) {
		case *ast.FuncDecl:
			ft = f.Type
		case *ast.FuncLit:
			ft = f.Type
		default:
			continue
		}
		return ft.Results != nil && len(ft.Results.List) > 0 && len(ft.Results.List[0].Names) > 0
	}
	return true
}

func constantOrNil(pass *analysis.Pass, e ast.Expr) bool {
	tv, ok := pass.TypesInfo.Types[e]
	return ok && (tv.Value != nil || tv.IsNil())
}

// hitReturn finds the return taken where the lookup at g.Read found the
// entry: the return ending an if statement testing what the lookup
// assigned (after section A), or ending the branch of an if holding the
// lookup itself (inside section A).
func hitReturn(src *Source, g *Gap) *ast.ReturnStmt {
	read := src.ReadExpr(g.Read)
	if read == nil {
		return nil
	}
	last := func(b *ast.BlockStmt) *ast.ReturnStmt {
		if n := len(b.List); n > 0 {
			ret, _ := b.List[n-1].(*ast.ReturnStmt)
			return ret
		}
		return nil
	}
	for _, n := range src.Enclosing(read.Pos()) {
		if ifs, ok := n.(*ast.IfStmt); ok {
			if tests(ifs, read) {
				return last(ifs.Body)
			}
			return nil
		}
	}
	assign, block := src.assignmentOf(read)
	if assign == nil || block == nil {
		return nil
	}
	names := map[string]bool{}
	for _, l := range assign.Lhs {
		if id, ok := l.(*ast.Ident); ok && id.Name != "_" {
			names[id.Name] = true
		}
	}
	for _, st := range block.List[indexOf(block.List, assign)+1:] {
		if ifs, ok := st.(*ast.IfStmt); ok && ifs.Else == nil && mentions(ifs.Cond, names) {
			return last(ifs.Body)
		}
	}
	return nil
}

// returnAfter returns the return statement that follows store in its
// block, past unlocks only.
func returnAfter(src *Source, store ast.Stmt) *ast.ReturnStmt {
	path := src.Enclosing(store.Pos())
	for i, n := range path {
		if n != ast.Node(store) || i+1 >= len(path) {
			continue
		}
		block, ok := path[i+1].(*ast.BlockStmt)
		if !ok {
			return nil
		}
		for _, st := range block.List[indexOf(block.List, store)+1:] {
			switch st := st.(type) {
			case *ast.ReturnStmt:
				return st
			case *ast.ExprStmt:
				if c, ok := st.X.(*ast.CallExpr); ok {
					if sel, ok := c.Fun.(*ast.SelectorExpr); ok && (sel.Sel.Name == "Unlock" || sel.Sel.Name == "RUnlock") && len(c.Args) == 0 {
						continue
					}
				}
				return nil
			default:
				return nil
			}
		}
		return nil
	}
	return nil
}

// usedAfter reports whether v is used in body after the statement store.
func usedAfter(pass *analysis.Pass, body *ast.BlockStmt, store ast.Stmt, v *types.Var) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && id.Pos() > store.End() && pass.TypesInfo.Uses[id] == v {
			found = true
		}
		return !found
	})
	return found
}

// usesAround sorts the uses of the variable v in body around the
// statement store (whose own uses do not count): before it, whether v is
// used only as a whole (assigned, tested against nil, returned), so that
// nothing was done with the caller's own value that keeping another
// would lose; after it, whether v is only returned (or results built
// from it), and whether it is otherwise only asked for methods
// (v.(*tally).n.Add(1): the entry used as an entry), not handed on
// (sent, passed, stored) nor written to, which on the entry kept would
// do twice what the racer did once. A function literal using v spoils
// all three: when it runs is not known.
func usesAround(pass *analysis.Pass, body *ast.BlockStmt, store ast.Stmt, v *types.Var) (wholeBefore, returnedAfter, calledAfter bool) {
	wholeBefore, returnedAfter, calledAfter = true, true, true
	if store == nil || body == nil {
		return false, false, false
	}
	// One walk first, for what a use of v cannot say alone: receivers
	// holds the identifiers at the root of a method call's receiver (not
	// one started by go or defer);
	// nilTested those compared with nil; building, the uses that only
	// build the caller's value, handing it to no one (sorted in place by
	// a standard function, sort.Strings, or sort.Slice with a less
	// function it calls back before returning; appended to itself).
	receivers, nilTested := map[*ast.Ident]bool{}, map[*ast.Ident]bool{}
	building := map[ast.Node]bool{}
	started := map[*ast.CallExpr]bool{} // go v.run(): handed on, not used in place
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.GoStmt:
			started[n.Call] = true
		case *ast.DeferStmt:
			started[n.Call] = true
		case *ast.IfStmt:
			// if err, ok := x.(error); ok { return ..., err }: a memo of a
			// value or an error, asked which it holds and left with.
			init, ok := n.Init.(*ast.AssignStmt)
			if !ok || len(init.Lhs) != 2 || len(init.Rhs) != 1 || len(n.Body.List) != 1 {
				break
			}
			if _, ret := n.Body.List[0].(*ast.ReturnStmt); !ret {
				break
			}
			if ta, ok := ast.Unparen(init.Rhs[0]).(*ast.TypeAssertExpr); ok {
				if id, ok := ast.Unparen(ta.X).(*ast.Ident); ok {
					receivers[id] = true
				}
			}
		case *ast.CallExpr:
			if sel, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr); ok && !started[n] {
				x := sel.X
			root:
				for {
					switch e := ast.Unparen(x).(type) {
					case *ast.SelectorExpr:
						x = e.X
					case *ast.TypeAssertExpr:
						x = e.X
					case *ast.Ident:
						receivers[e] = true
						break root
					default:
						break root
					}
				}
			}
			if fn, ok := typeutil.Callee(pass.TypesInfo, n).(*types.Func); ok && (stdCallsBack(fn) || sortsInPlace(fn)) {
				for _, a := range n.Args {
					switch a := ast.Unparen(a).(type) {
					case *ast.FuncLit:
						building[a] = true
					case *ast.Ident:
						if pass.TypesInfo.Uses[a] == v {
							building[a] = true // sort.Slice(v, ...)
						}
					}
				}
			}
		case *ast.BinaryExpr:
			if n.Op == token.EQL || n.Op == token.NEQ {
				x, y := ast.Unparen(n.X), ast.Unparen(n.Y)
				if id, ok := x.(*ast.Ident); ok && pass.TypesInfo.Types[y].IsNil() {
					nilTested[id] = true
				}
				if id, ok := y.(*ast.Ident); ok && pass.TypesInfo.Types[x].IsNil() {
					nilTested[id] = true
				}
			}
		case *ast.AssignStmt:
			if len(n.Lhs) == 1 && len(n.Rhs) == 1 {
				if id, ok := ast.Unparen(n.Lhs[0]).(*ast.Ident); ok && pass.TypesInfo.ObjectOf(id) == v {
					if c, ok := n.Rhs[0].(*ast.CallExpr); ok && len(c.Args) > 0 && pass.TypesInfo.Types[c.Fun].IsBuiltin() {
						if arg, ok := ast.Unparen(c.Args[0]).(*ast.Ident); ok && pass.TypesInfo.Uses[arg] == v {
							building[arg] = true // v = append(v, ...)
						}
					}
				}
			}
		}
		return true
	})
	var visit func(n ast.Node, inReturn bool) bool
	visit = func(n ast.Node, inReturn bool) bool {
		if st, ok := n.(ast.Stmt); ok && st == store {
			return false
		}
		if building[n] && n.Pos() < store.Pos() {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			ast.Inspect(n.Body, func(m ast.Node) bool {
				if id, isID := m.(*ast.Ident); isID && pass.TypesInfo.Uses[id] == v {
					wholeBefore, returnedAfter, calledAfter = false, false, false
				}
				return true
			})
			return false
		case *ast.ReturnStmt:
			for _, r := range n.Results {
				ast.Inspect(r, func(m ast.Node) bool { return visit(m, true) })
			}
			return false
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				if id, isID := ast.Unparen(l).(*ast.Ident); !isID || pass.TypesInfo.ObjectOf(id) != v {
					ast.Inspect(l, func(m ast.Node) bool { return visit(m, inReturn) })
				}
			}
			for _, r := range n.Rhs {
				ast.Inspect(r, func(m ast.Node) bool { return visit(m, inReturn) })
			}
			return false
		case *ast.Ident:
			if pass.TypesInfo.Uses[n] != v {
				break
			}
			if n.Pos() > store.End() {
				returnedAfter = returnedAfter && inReturn
				calledAfter = calledAfter && (inReturn || receivers[n])
			} else if !inReturn && !nilTested[n] {
				wholeBefore = false
			}
		}
		return true
	}
	ast.Inspect(body, func(n ast.Node) bool { return visit(n, false) })
	return wholeBefore, returnedAfter, calledAfter
}

// sortsInPlace reports whether fn is a standard function that only
// reorders the slice it is given.
func sortsInPlace(fn *types.Func) bool {
	if fn.Pkg() == nil || fn.Signature().Recv() != nil {
		return false
	}
	switch fn.Pkg().Path() {
	case "sort":
		switch fn.Name() {
		case "Strings", "Ints", "Float64s", "Sort", "Stable":
			return true
		}
	case "slices":
		return fn.Name() == "Sort" || fn.Name() == "Reverse"
	}
	return false
}

// innermostBody returns the body of the innermost function on path (as
// Source.Enclosing gives it, innermost first), and the function's index
// there; nil and -1 when there is none.
func innermostBody(path []ast.Node) (*ast.BlockStmt, int) {
	for i, n := range path {
		switch n := n.(type) {
		case *ast.FuncLit:
			return n.Body, i
		case *ast.FuncDecl:
			return n.Body, i
		}
	}
	return nil, -1
}

package lockflow

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"
)

// inlineGetterFix replaces the call of a getter that only locks around
// one expression, made with that lock already held, by the expression:
//
//	func (s *set) Len() int {
//		s.mu.RLock()
//		defer s.mu.RUnlock()
//		return len(s.keys)
//	}
//
//	s.mu.RLock()
//	n := s.Len()      // becomes n := len(s.keys)
//
// The caller's lock covers the read the getter's lock did. The receiver
// and the parameters are replaced by what the call passes, so the text
// is offered only where that means the same: the getter is declared in
// this package, not generic, its expression and the call's operands call
// nothing (len and cap aside), every other name in the expression means
// at the call what it means in the getter, the operands have the
// parameters' types, and the expression has the result's type.
func inlineGetterFix(pass *analysis.Pass, src *Source, r Reentry) (analysis.SuggestedFix, bool) {
	none := analysis.SuggestedFix{}
	if r.Runner != RunnerNone || len(r.Via) > 0 || !r.Taken.IsValid() {
		return none, false
	}
	call := src.CallAt(r.Call)
	if call == nil {
		return none, false
	}
	if _, _, _, ok := lockingDecl(src, r); !ok {
		return none, false
	}
	// The call: a value used, not a statement, a go or a defer.
	path := src.Enclosing(call.Pos())
	if len(path) < 2 {
		return none, false
	}
	for i, n := range path {
		if n == ast.Node(call) && i+1 < len(path) {
			switch path[i+1].(type) {
			case *ast.ExprStmt, *ast.GoStmt, *ast.DeferStmt:
				return none, false
			}
		}
	}
	getter, ok := getterAt(pass, src, call)
	if !ok || getter.commaOk {
		return none, false
	}
	return analysis.SuggestedFix{
		Message:   "read " + getter.expr + " under the lock already held",
		TextEdits: []analysis.TextEdit{{Pos: call.Pos(), End: call.End(), NewText: []byte(getter.expr)}},
	}, true
}

// inlinedGetter is a call of a getter that only locks around one
// expression, written out at the call.
type inlinedGetter struct {
	expr string // the expression as it reads at the call, parenthesised unless primary
	lock string // the lock as the caller writes it
	// commaOk: the getter returns a map lookup's value and whether it was
	// found (v, ok := m[k]; return v, ok); expr is the lookup, which
	// means the same only where two values are assigned.
	commaOk bool
}

// getterAt returns call written out where it calls such a getter: one
// declared in this package, not generic, whose body is the lock, its
// deferred release and the return of one expression that calls nothing
// (len and cap aside), of the result's type, or of a map lookup's two
// values (v, ok := m[k]; return v, ok); the call passes operands that
// call nothing, and every name means at the call what it means in the
// getter (atCall).
func getterAt(pass *analysis.Pass, src *Source, call *ast.CallExpr) (inlinedGetter, bool) {
	none := inlinedGetter{}
	if call.Ellipsis.IsValid() {
		return none, false
	}
	fn, ok := typeutil.Callee(pass.TypesInfo, call).(*types.Func)
	if !ok || fn.Pkg() != pass.Pkg {
		return none, false
	}
	sig := fn.Type().(*types.Signature)
	results := sig.Results().Len()
	if sig.RecvTypeParams() != nil || sig.TypeParams() != nil || sig.Variadic() || results != 1 && results != 2 {
		return none, false
	}
	decl := enclosingFuncDecl(src, fn.Pos())
	if decl == nil || decl.Name.Pos() != fn.Pos() || decl.Body == nil || len(decl.Body.List) != results+2 {
		return none, false
	}
	// The body: the lock, its deferred release, one return.
	lockSel := lockStmt(pass.TypesInfo, decl.Body.List[0])
	if lockSel == nil || lockSel.Sel.Name != "Lock" && lockSel.Sel.Name != "RLock" {
		return none, false
	}
	if d, ok := decl.Body.List[1].(*ast.DeferStmt); !ok || !isReleaseOf(d.Call, types.ExprString(lockSel.X)) {
		return none, false
	}
	ret, ok := decl.Body.List[len(decl.Body.List)-1].(*ast.ReturnStmt)
	if !ok || len(ret.Results) != results {
		return none, false
	}
	var expr ast.Expr
	if results == 1 {
		expr = ret.Results[0]
		if t := pass.TypesInfo.TypeOf(expr); t == nil || !types.Identical(t, sig.Results().At(0).Type()) {
			return none, false
		}
	} else if expr = commaOkLookup(pass, decl.Body.List[2], ret, sig); expr == nil {
		return none, false
	}
	if hasEffect(pass.TypesInfo, expr) {
		return none, false
	}
	texts, ok := atCall(pass, call, sig, lockSel.X, expr)
	if !ok {
		return none, false
	}
	getter := inlinedGetter{expr: texts[1], lock: texts[0], commaOk: results == 2}
	if !isPrimary(expr) {
		getter.expr = "(" + getter.expr + ")"
	}
	// The text was cut from the file by offsets: it must parse.
	if _, err := parser.ParseExpr(getter.expr); err != nil {
		return none, false
	}
	return getter, true
}

// atCall returns each of exprs, written in a function whose signature is
// sig, as it reads at call: the receiver and the parameters replaced by
// what the call passes, every other name kept where it means there what
// it means in the function. False where that cannot be written: an
// operand with an effect, one that cannot stand for its variable
// (servesAs), a name that means something else at the call, a text that
// cannot be cut from its file.
func atCall(pass *analysis.Pass, call *ast.CallExpr, sig *types.Signature, exprs ...ast.Expr) ([]string, bool) {
	with := map[*types.Var]ast.Expr{}
	var operands []ast.Expr
	if sig.Recv() != nil {
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok {
			return nil, false
		}
		with[sig.Recv()] = sel.X
		operands = append(operands, sel.X)
	}
	if len(call.Args) != sig.Params().Len() {
		return nil, false
	}
	for i, a := range call.Args {
		with[sig.Params().At(i)] = a
		operands = append(operands, a)
	}
	for _, o := range operands {
		if hasEffect(pass.TypesInfo, o) {
			return nil, false
		}
	}
	scope := pass.Pkg.Scope().Innermost(call.Pos())
	if scope == nil {
		return nil, false
	}
	var texts []string
	for _, expr := range exprs {
		for v, e := range with {
			if !servesAs(pass, expr, v, e, v == sig.Recv()) {
				return nil, false
			}
		}
		text, ok := exprAtCall(pass, call, expr, with, scope)
		if !ok {
			return nil, false
		}
		texts = append(texts, text)
	}
	return texts, true
}

// exprAtCall is atCall for one expression, with the variables bound.
func exprAtCall(pass *analysis.Pass, call *ast.CallExpr, expr ast.Expr, with map[*types.Var]ast.Expr, scope *types.Scope) (string, bool) {
	type edit struct {
		pos, end token.Pos
		text     string
	}
	var edits []edit
	ok := true
	bare := operandsAlone(expr)
	name := func(m ast.Node) bool {
		if !ok {
			return false
		}
		id, isID := m.(*ast.Ident)
		if !isID {
			return true
		}
		text, keep := nameAtCall(pass, id, with, scope, call.Pos(), !bare[id])
		if !keep {
			ok = false
		} else if text != "" {
			edits = append(edits, edit{id.Pos(), id.End(), text})
		}
		return ok
	}
	ast.Inspect(expr, func(n ast.Node) bool {
		if !ok {
			return false
		}
		switch n := n.(type) {
		case *ast.SelectorExpr:
			// A field, or a name another package declares: only the
			// root is a name to resolve.
			if f, isVar := pass.TypesInfo.Uses[n.Sel].(*types.Var); isVar && f.IsField() {
				ast.Inspect(n.X, name)
				return false
			}
			if _, qualified := pass.TypesInfo.Uses[rootIdent(n.X)].(*types.PkgName); !qualified {
				ok = false
			}
			ast.Inspect(n.X, name)
			return false
		case *ast.KeyValueExpr:
			// A struct literal's field names are not names to resolve.
			if id, isID := n.Key.(*ast.Ident); isID {
				if f, isVar := pass.TypesInfo.Uses[id].(*types.Var); isVar && f.IsField() {
					ast.Inspect(n.Value, name)
					return false
				}
			}
		case *ast.Ident:
			return name(n)
		}
		return true
	})
	if !ok {
		return "", false
	}
	slices.SortFunc(edits, func(a, b edit) int { return int(b.pos - a.pos) })
	text := sourceText(pass, expr)
	if text == "" {
		return "", false
	}
	base := expr.Pos()
	for _, e := range edits {
		text = text[:e.pos-base] + e.text + text[e.end-base:]
	}
	return text, true
}

// servesAs reports whether the call's operand e can stand for the
// getter's variable v in expr: of v's type; or a constant for a
// parameter of basic type; or, for the receiver, a value where the
// getter has a pointer (or the reverse) when expr only selects its
// fields.
func servesAs(pass *analysis.Pass, expr ast.Expr, v *types.Var, e ast.Expr, recv bool) bool {
	tv, known := pass.TypesInfo.Types[e]
	switch {
	case !known:
		return false
	case types.Identical(tv.Type, v.Type()):
		return true
	case !recv && tv.Value != nil:
		// An untyped constant takes its type from where it stands: only
		// as an index is that the parameter's.
		_, basic := v.Type().Underlying().(*types.Basic)
		return basic && usedOnlyAsIndex(pass, expr, v)
	case recv:
		// A value for a pointer or the reverse, of the one type (a
		// method promoted from an embedded field is another type, whose
		// fields the outer one may shadow).
		return sameOrPointedTo(tv.Type, v.Type()) && usedOnlyAsFieldRoot(pass, expr, v)
	}
	return false
}

func sameOrPointedTo(a, b types.Type) bool {
	if p, ok := a.Underlying().(*types.Pointer); ok && types.Identical(p.Elem(), b) {
		return true
	}
	if p, ok := b.Underlying().(*types.Pointer); ok && types.Identical(p.Elem(), a) {
		return true
	}
	return false
}

// usedOnlyAsIndex reports whether every use of v in expr is an index.
func usedOnlyAsIndex(pass *analysis.Pass, expr ast.Expr, v *types.Var) bool {
	return usedOnlyAs(pass, expr, v, func(n ast.Node) ast.Expr {
		if ix, ok := n.(*ast.IndexExpr); ok {
			return ix.Index
		}
		return nil
	})
}

// usedOnlyAs reports whether every use of v in expr is one that place
// (given each node, the operand it allows, or nil) allows.
func usedOnlyAs(pass *analysis.Pass, expr ast.Expr, v *types.Var, place func(ast.Node) ast.Expr) bool {
	allowed := map[*ast.Ident]bool{}
	ast.Inspect(expr, func(n ast.Node) bool {
		if id, ok := ast.Unparen(place(n)).(*ast.Ident); ok {
			allowed[id] = true
		}
		return true
	})
	only := true
	ast.Inspect(expr, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && pass.TypesInfo.Uses[id] == v && !allowed[id] {
			only = false
		}
		return only
	})
	return only
}

// hasEffect reports whether evaluating e could do more than read: a call
// (len, cap and conversions aside), a function literal, a receive.
func hasEffect(info *types.Info, e ast.Expr) bool {
	if hasCall(info, e, true) {
		return true
	}
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if u, ok := n.(*ast.UnaryExpr); ok && u.Op == token.ARROW {
			found = true
		}
		return !found
	})
	return found
}

// nameAtCall returns what the name id of the getter's expression becomes
// at the call: the operand passed for a receiver or parameter ("" for a
// name kept as it is; in parentheses where the name is an operand), and
// false when the name would mean something else there.
func nameAtCall(pass *analysis.Pass, id *ast.Ident, with map[*types.Var]ast.Expr, scope *types.Scope, at token.Pos, operand bool) (string, bool) {
	obj := pass.TypesInfo.Uses[id]
	if obj == nil {
		return "", true
	}
	if v, isVar := obj.(*types.Var); isVar {
		if e, passed := with[v]; passed {
			text := sourceText(pass, e)
			if text != "" && operand && !isPrimary(e) {
				text = "(" + text + ")"
			}
			return text, text != ""
		}
	}
	_, found := scope.LookupParent(id.Name, at)
	if found == obj {
		return "", true
	}
	p1, isPkg1 := obj.(*types.PkgName)
	p2, isPkg2 := found.(*types.PkgName)
	return "", isPkg1 && isPkg2 && p1.Imported() == p2.Imported() && p1.Name() == p2.Name()
}

// operandsAlone returns the names of expr that stand alone, where any
// expression may replace them without parentheses: expr itself, an index,
// an argument, an element of a literal.
func operandsAlone(expr ast.Expr) map[*ast.Ident]bool {
	alone := map[*ast.Ident]bool{}
	mark := func(e ast.Expr) {
		if id, ok := e.(*ast.Ident); ok {
			alone[id] = true
		}
	}
	mark(expr)
	ast.Inspect(expr, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.IndexExpr:
			mark(n.Index)
		case *ast.CallExpr:
			for _, a := range n.Args {
				mark(a)
			}
		case *ast.CompositeLit:
			for _, e := range n.Elts {
				mark(e)
			}
		case *ast.KeyValueExpr:
			mark(n.Value)
		case *ast.ParenExpr:
			mark(n.X)
		}
		return true
	})
	return alone
}

func rootIdent(e ast.Expr) *ast.Ident {
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.SelectorExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.StarExpr:
			e = x.X
		case *ast.Ident:
			return x
		default:
			return nil
		}
	}
}

// usedOnlyAsFieldRoot reports whether every use of v in expr selects a
// field of it (v.f), so that a value or a pointer serve alike.
func usedOnlyAsFieldRoot(pass *analysis.Pass, expr ast.Expr, v *types.Var) bool {
	return usedOnlyAs(pass, expr, v, func(n ast.Node) ast.Expr {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if f, ok := pass.TypesInfo.Uses[sel.Sel].(*types.Var); ok && f.IsField() {
				return sel.X
			}
		}
		return nil
	})
}

// isPrimary reports whether e needs no parentheses wherever an operand
// stands.
func isPrimary(e ast.Expr) bool {
	switch e.(type) {
	case *ast.Ident, *ast.BasicLit, *ast.SelectorExpr, *ast.IndexExpr, *ast.CallExpr, *ast.ParenExpr, *ast.CompositeLit:
		return true
	}
	return false
}

// sourceText returns e as written in its file.
func sourceText(pass *analysis.Pass, e ast.Expr) string {
	// Offsets into a file the compiler saw other than the one read
	// (cgo) would cut something else.
	text := text(pass, e.Pos(), e.End())
	if parsed, err := parser.ParseExpr(text); err != nil || types.ExprString(parsed) != types.ExprString(e) {
		return ""
	}
	return text
}

func enclosingFuncDecl(src *Source, pos token.Pos) *ast.FuncDecl {
	for _, n := range src.Enclosing(pos) {
		if d, ok := n.(*ast.FuncDecl); ok {
			return d
		}
	}
	return nil
}

// inlinedSetter is section B written out where it is a call of a setter
// that only locks around plain writes:
//
//	func (c *cache) add(k string, v Schema) {
//		c.mu.Lock()
//		defer c.mu.Unlock()
//		c.m[k] = v
//	}
//
// made as a statement of its own (c.add(key, schema)). A re-check of the
// stale decision needs the lock held where it writes, so the fixes for
// such a B replace the call by the setter's body as it reads at the call
// (s.mu.Lock(); the re-check; s.m[key] = schema; s.mu.Unlock()).
type inlinedSetter struct {
	call *ast.ExprStmt
	lock string   // the lock as the caller writes it
	body []string // the writes as they read at the call
}

// setterAt returns B written out, where B is a call of such a setter: the
// setter is declared in this package, not generic, returns nothing, and
// its body is the lock, its release (deferred first, or last) and
// assignments, appends, increments and deletes that call nothing (len
// and cap aside); the call's operands call nothing either, and every name
// means at the call what it means in the setter (atCall).
func setterAt(pass *analysis.Pass, src *Source, g *Gap) (inlinedSetter, bool) {
	none := inlinedSetter{}
	if !g.BHelper || g.BInPlace {
		return none, false
	}
	call := src.CallAt(g.BOpen)
	if call == nil || call.Ellipsis.IsValid() {
		return none, false
	}
	var stmt *ast.ExprStmt
	path := src.Enclosing(call.Pos())
	for i, n := range path {
		if n == ast.Node(call) && i+2 < len(path) {
			stmt, _ = path[i+1].(*ast.ExprStmt)
			if _, inList := path[i+2].(*ast.BlockStmt); !inList {
				stmt = nil
			}
			break
		}
	}
	if stmt == nil {
		return none, false
	}
	fn, ok := typeutil.Callee(pass.TypesInfo, call).(*types.Func)
	if !ok || fn.Pkg() != pass.Pkg {
		return none, false
	}
	sig := fn.Type().(*types.Signature)
	if sig.RecvTypeParams() != nil || sig.TypeParams() != nil || sig.Variadic() || sig.Results().Len() != 0 {
		return none, false
	}
	decl := enclosingFuncDecl(src, fn.Pos())
	if decl == nil || decl.Name.Pos() != fn.Pos() || decl.Body == nil || len(decl.Body.List) < 3 {
		return none, false
	}
	list := decl.Body.List
	lockSel := lockStmt(pass.TypesInfo, list[0])
	if lockSel == nil || lockSel.Sel.Name != "Lock" {
		return none, false
	}
	recv := types.ExprString(lockSel.X)
	// The release: deferred right after the lock, or the last statement.
	if d, ok := list[1].(*ast.DeferStmt); ok && isUnlockOf(d.Call, recv) {
		list = list[2:]
	} else if last, ok := list[len(list)-1].(*ast.ExprStmt); ok {
		if c, ok := last.X.(*ast.CallExpr); !ok || !isUnlockOf(c, recv) {
			return none, false
		}
		list = list[1 : len(list)-1]
	} else {
		return none, false
	}
	// Each write, as a format and the expressions that go in it.
	type write struct {
		format string
		exprs  []ast.Expr
	}
	var writes []write
	exprs := []ast.Expr{lockSel.X}
	for _, st := range list {
		var w write
		switch st := st.(type) {
		case *ast.AssignStmt:
			if st.Tok == token.DEFINE || len(st.Lhs) != 1 || len(st.Rhs) != 1 {
				return none, false
			}
			w = write{"%s " + st.Tok.String() + " %s", []ast.Expr{st.Lhs[0], st.Rhs[0]}}
		case *ast.IncDecStmt:
			w = write{"%s" + st.Tok.String(), []ast.Expr{st.X}}
		case *ast.ExprStmt:
			c, ok := st.X.(*ast.CallExpr)
			if !ok || len(c.Args) != 2 {
				return none, false
			}
			if b, ok := typeutil.Callee(pass.TypesInfo, c).(*types.Builtin); !ok || b.Name() != "delete" {
				return none, false
			}
			w = write{"delete(%s, %s)", c.Args}
		default:
			return none, false
		}
		for _, e := range w.exprs {
			if hasEffect(pass.TypesInfo, e) && !isPlainAppend(pass, e) {
				return none, false
			}
		}
		writes = append(writes, w)
		exprs = append(exprs, w.exprs...)
	}
	if len(writes) == 0 {
		return none, false
	}
	texts, ok := atCall(pass, call, sig, exprs...)
	if !ok {
		return none, false
	}
	setter := inlinedSetter{call: stmt, lock: texts[0]}
	texts = texts[1:]
	for _, w := range writes {
		args := make([]any, len(w.exprs))
		for i := range args {
			args[i] = texts[i]
		}
		texts = texts[len(w.exprs):]
		setter.body = append(setter.body, fmt.Sprintf(w.format, args...))
	}
	return setter, true
}

// lockStmt returns x.M where st is a statement x.M() with no operands
// and x has no effect (a Lock or RLock, to be checked by the caller).
func lockStmt(info *types.Info, st ast.Stmt) *ast.SelectorExpr {
	es, ok := st.(*ast.ExprStmt)
	if !ok {
		return nil
	}
	c, ok := es.X.(*ast.CallExpr)
	if !ok || len(c.Args) != 0 {
		return nil
	}
	sel, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr)
	if !ok || hasEffect(info, sel.X) {
		return nil
	}
	return sel
}

// commaOkLookup returns the map lookup m[k] where st and ret are
// "v, ok := m[k]" and "return v, ok", of the getter's result types.
func commaOkLookup(pass *analysis.Pass, st ast.Stmt, ret *ast.ReturnStmt, sig *types.Signature) ast.Expr {
	assign, ok := st.(*ast.AssignStmt)
	if !ok || assign.Tok != token.DEFINE || len(assign.Lhs) != 2 || len(assign.Rhs) != 1 {
		return nil
	}
	for i, l := range assign.Lhs {
		id, ok := l.(*ast.Ident)
		r, rok := ret.Results[i].(*ast.Ident)
		if !ok || !rok || id.Name == "_" || pass.TypesInfo.Defs[id] == nil || pass.TypesInfo.Uses[r] != pass.TypesInfo.Defs[id] {
			return nil
		}
	}
	index, ok := ast.Unparen(assign.Rhs[0]).(*ast.IndexExpr)
	if !ok {
		return nil
	}
	m, ok := types.Unalias(pass.TypesInfo.TypeOf(index.X)).Underlying().(*types.Map)
	if !ok || !types.Identical(m.Elem(), sig.Results().At(0).Type()) ||
		!types.Identical(types.Typ[types.Bool], sig.Results().At(1).Type()) {
		return nil
	}
	return index
}

// isPlainAppend reports whether e is a call of the builtin append whose
// operands have no effect: a write the setter makes under its lock, as
// plain as an assignment.
func isPlainAppend(pass *analysis.Pass, e ast.Expr) bool {
	c, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return false
	}
	if b, ok := typeutil.Callee(pass.TypesInfo, c).(*types.Builtin); !ok || b.Name() != "append" {
		return false
	}
	for _, a := range c.Args {
		if hasEffect(pass.TypesInfo, a) {
			return false
		}
	}
	return true
}

// fix is the fix replacing the setter's call by its body, with recheck
// (lines starting on a new line, indented as the call) after the lock.
func (s inlinedSetter) fix(pass *analysis.Pass, message, recheck string) analysis.SuggestedFix {
	indent := indentation(pass, s.call.Pos())
	var b strings.Builder
	fmt.Fprintf(&b, "%s.Lock()%s\n", s.lock, recheck)
	for _, w := range s.body {
		fmt.Fprintf(&b, "%s%s\n", indent, w)
	}
	fmt.Fprintf(&b, "%s%s.Unlock()", indent, s.lock)
	return analysis.SuggestedFix{
		Message:   message,
		TextEdits: []analysis.TextEdit{{Pos: s.call.Pos(), End: s.call.End(), NewText: []byte(b.String())}},
	}
}

package lockflow

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/astutil"
)

// Source finds the syntax behind positions the engine reports, so passes
// can name things as the source wrote them.
type Source struct {
	pass *analysis.Pass
}

func NewSource(pass *analysis.Pass) *Source { return &Source{pass: pass} }

// File returns the file containing pos.
func (s *Source) File(pos token.Pos) *ast.File {
	for _, f := range s.pass.Files {
		if f.FileStart <= pos && pos <= f.FileEnd {
			return f
		}
	}
	return nil
}

// Enclosing returns the path of nodes enclosing pos, innermost first.
func (s *Source) Enclosing(pos token.Pos) []ast.Node {
	f := s.File(pos)
	if f == nil {
		return nil
	}
	path, _ := astutil.PathEnclosingInterval(f, pos, pos)
	return path
}

// CallAt returns the call expression whose opening parenthesis is at
// lparen (SSA positions calls there).
func (s *Source) CallAt(lparen token.Pos) *ast.CallExpr {
	for _, n := range s.Enclosing(lparen) {
		if c, ok := n.(*ast.CallExpr); ok && c.Lparen == lparen {
			return c
		}
	}
	return nil
}

// Extent returns the whole expression SSA placed at pos: the call
// (d.mu.Lock()) whose parenthesis it is, the index expression (m[k])
// whose bracket, the selection (d.items) whose field name. Where pos is
// none of these it is returned alone, with end NoPos.
func (s *Source) Extent(pos token.Pos) (start, end token.Pos) {
	for _, n := range s.Enclosing(pos) {
		switch n := n.(type) {
		case *ast.CallExpr:
			if n.Lparen == pos {
				return n.Pos(), n.End()
			}
		case *ast.IndexExpr:
			if n.Lbrack == pos {
				return n.Pos(), n.End()
			}
		case *ast.SelectorExpr:
			if n.Sel.Pos() == pos {
				return n.Pos(), n.End()
			}
		}
	}
	return pos, token.NoPos
}

// Receiver returns the receiver of a method call as written, e.g. "sd.mu"
// for sd.mu.Lock(), or "" when pos is not such a call.
func (s *Source) Receiver(lparen token.Pos) string {
	c := s.CallAt(lparen)
	if c == nil {
		return ""
	}
	if sel, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr); ok {
		return types.ExprString(sel.X)
	}
	return ""
}

// Callee returns the called function as written, e.g. "sd.create".
func (s *Source) Callee(lparen token.Pos) string {
	if c := s.CallAt(lparen); c != nil {
		if _, lit := ast.Unparen(c.Fun).(*ast.FuncLit); lit {
			return "the function literal called here"
		}
		return types.ExprString(c.Fun)
	}
	return ""
}

// ReadExpr returns the expression the engine positioned a read at: the
// index expression of a map lookup (at its '['), the selector of a field
// load (at its selector), or the call of a helper (at its '(').
func (s *Source) ReadExpr(pos token.Pos) ast.Expr {
	var ident ast.Expr
	for _, n := range s.Enclosing(pos) {
		switch e := n.(type) {
		case *ast.IndexExpr:
			if e.Lbrack == pos {
				return e
			}
		case *ast.SelectorExpr:
			if e.Sel.Pos() == pos {
				return e
			}
		case *ast.CallExpr:
			if e.Lparen == pos {
				return e
			}
		case *ast.StarExpr:
			if e.Star == pos {
				return e
			}
		case *ast.Ident:
			// The selector it may end (r.n) names the read better.
			if e.Pos() == pos && ident == nil {
				ident = e
			}
		}
	}
	return ident
}

// unnamedValue is what ValueName says when the source has no expression
// at the read.
const unnamedValue = "a value"

// ValueName names the value read at pos: the variable the statement
// holding the read assigns it to (or the value computed from it), or else
// the read expression itself.
func (s *Source) ValueName(pos token.Pos) string {
	name, _, _ := s.namedRead(pos)
	return name
}

// MissingName names what a lookup at pos found missing: the name
// ValueName gives, unless that is a variable holding a verdict on it
// (open := m.done != nil, a bool where the lookup's value is not one),
// which cannot be missing; then the lookup as written. name is what the
// caller settled on, kept unless it is that variable.
func (s *Source) MissingName(pos token.Pos, name string) string {
	held, e, holder := s.namedRead(pos)
	if holder == nil || held != name {
		return name
	}
	info := s.pass.TypesInfo
	if t, et := info.TypeOf(holder), info.TypeOf(e); t != nil && et != nil && isBool(t) && !isBool(et) {
		return types.ExprString(e)
	}
	return name
}

// namedRead returns ValueName's answer for the read at pos, the read
// expression, and the variable the answer names, if it names one.
func (s *Source) namedRead(pos token.Pos) (name string, e, holder ast.Expr) {
	e = s.ReadExpr(pos)
	if e == nil {
		return unnamedValue, nil, nil
	}
	itself := types.ExprString(e)
	within := func(outer ast.Node) bool { return outer.Pos() <= e.Pos() && e.End() <= outer.End() }
	for _, n := range s.Enclosing(e.Pos()) {
		switch st := n.(type) {
		case *ast.FuncLit:
			if e.Pos() <= st.Pos() && st.End() <= e.End() {
				continue // the literal called by e itself
			}
			return itself, e, nil
		case *ast.AssignStmt:
			for i, r := range st.Rhs {
				if !within(r) {
					continue
				}
				lhs := st.Lhs[0]
				if len(st.Lhs) == len(st.Rhs) {
					lhs = st.Lhs[i]
				}
				if id, ok := lhs.(*ast.Ident); ok && (id.Name == "_" || usesVar(r, id.Name)) {
					// off = c.offset + off: "off" names the old value too.
					return itself, e, nil
				}
				if isError(s.pass.TypesInfo.TypeOf(lhs)) {
					// err := r.checkFree(name): the call gave the verdict.
					return itself, e, nil
				}
				return types.ExprString(lhs), e, lhs
			}
			return itself, e, nil
		case *ast.ValueSpec:
			for i, r := range st.Values {
				if within(r) && i < len(st.Names) && st.Names[i].Name != "_" {
					return st.Names[i].Name, e, st.Names[i]
				}
			}
			return itself, e, nil
		case ast.Stmt:
			return itself, e, nil
		}
	}
	return itself, e, nil
}

// usesVar reports whether x refers to the variable name (a field or
// method of that name does not count).
func usesVar(x ast.Expr, name string) bool {
	found := false
	ast.Inspect(x, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			found = found || usesVar(n.X, name)
			return false
		case *ast.FuncLit:
			return false // its own variables
		case *ast.Ident:
			found = found || n.Name == name
		}
		return !found
	})
	return found
}

// PassDoc returns the documentation of a pass from the text of its
// doc.go: the comment after the "# Analyzer NAME" heading, whose first line
// is "NAME: summary" (the x/tools convention).
func PassDoc(docGo, name string) string {
	var b strings.Builder
	in := false
	for _, line := range strings.Split(docGo, "\n") {
		if strings.HasPrefix(line, "package ") {
			break
		}
		line = strings.TrimPrefix(line, "//")
		line = strings.TrimPrefix(line, " ")
		if strings.TrimSpace(line) == "# Analyzer "+name {
			in = true
			continue
		}
		if in {
			b.WriteString(line)
			b.WriteByte('\n')
		}
	}
	// Drivers print "NAME: " before the documentation themselves.
	return strings.TrimPrefix(strings.TrimSpace(b.String()), name+": ")
}

// FirstLine returns s up to its first newline.
func FirstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// HelperLock names the lock a helper call takes, as the caller would
// write it: the call's receiver or argument followed by the helper's
// selectors ("l.expiryMu" for l.refresh(...)).
func (s *Source) HelperLock(g *Gap) string {
	if g.BLockParam == -1 {
		return strings.TrimPrefix(g.BLockSteps, ".")
	}
	c := s.CallAt(g.BOpen)
	if c == nil {
		return g.Lock.String()
	}
	args := c.Args
	if sel, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr); ok {
		if selection, ok := s.pass.TypesInfo.Selections[sel]; ok && selection.Kind() == types.MethodVal {
			args = append([]ast.Expr{sel.X}, args...)
		}
	}
	if g.BLockParam >= 0 && g.BLockParam < len(args) {
		return types.ExprString(args[g.BLockParam]) + g.BLockSteps
	}
	return g.Lock.String()
}

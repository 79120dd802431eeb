package mutexmapdelete

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	goanalysis "golang.org/x/tools/go/analysis"

	"github.com/lockgap/lockgap/internal/lockflow"
)

// removalFix keeps the lock in the map:
//
//   - m.LoadAndDelete(k) becomes m.Load(k) (same results, nothing removed);
//   - a statement that is only the removal (m.Delete(k), delete(m, k),
//     defer m.Delete(k)) is removed with its line.
//
// It is offered only when nothing else changes meaning: no local variable
// and no import is used by the removed statement alone.
func (r *reporter) removalFix(s *site, call *ast.CallExpr) (goanalysis.SuggestedFix, bool) {
	if s.kind == opLoadAndDelete && !s.wrapper {
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok || sel.Sel.Name != "LoadAndDelete" {
			return goanalysis.SuggestedFix{}, false
		}
		return goanalysis.SuggestedFix{
			Message:   "keep the mutex in the map: Load instead of LoadAndDelete",
			TextEdits: []goanalysis.TextEdit{{Pos: sel.Sel.Pos(), End: sel.Sel.End(), NewText: []byte("Load")}},
		}, true
	}
	if !s.kind.removes() {
		return goanalysis.SuggestedFix{}, false
	}
	path := r.src.Enclosing(call.Pos())
	var stmt ast.Stmt
	var parentIdx int
	for i, n := range path {
		switch st := n.(type) {
		case *ast.ExprStmt:
			if ast.Unparen(st.X) == call {
				stmt, parentIdx = st, i+1
			}
		case *ast.DeferStmt:
			if st.Call == call {
				stmt, parentIdx = st, i+1
			}
		}
		if stmt != nil {
			break
		}
	}
	if stmt == nil || parentIdx >= len(path) {
		return goanalysis.SuggestedFix{}, false
	}
	switch path[parentIdx].(type) {
	case *ast.BlockStmt, *ast.CaseClause, *ast.CommClause:
	default:
		return goanalysis.SuggestedFix{}, false
	}
	if r.usedOnlyIn(stmt, r.src.File(stmt.Pos())) {
		return goanalysis.SuggestedFix{}, false
	}
	pos, end := r.lineSpan(stmt)
	return goanalysis.SuggestedFix{
		Message:   "keep the mutex in the map: remove the " + r.opName(s, call),
		TextEdits: []goanalysis.TextEdit{{Pos: pos, End: end}},
	}, true
}

// usedOnlyIn reports whether some local variable or imported package
// referred to in n is referred to nowhere else in the file (removing n
// would leave it unused).
func (r *reporter) usedOnlyIn(n ast.Node, file *ast.File) bool {
	if file == nil {
		return true
	}
	info := r.pass.TypesInfo
	inside := map[types.Object]int{}
	ast.Inspect(n, func(x ast.Node) bool {
		id, ok := x.(*ast.Ident)
		if !ok {
			return true
		}
		switch obj := info.Uses[id].(type) {
		case *types.PkgName:
			inside[obj]++
		case *types.Var:
			if !obj.IsField() && obj.Parent() != nil && obj.Parent() != r.pass.Pkg.Scope() {
				inside[obj]++
			}
		}
		return true
	})
	if len(inside) == 0 {
		return false
	}
	total := map[types.Object]int{}
	ast.Inspect(file, func(x ast.Node) bool {
		if id, ok := x.(*ast.Ident); ok {
			if obj := info.Uses[id]; obj != nil {
				if _, ok := inside[obj]; ok {
					total[obj]++
				}
			}
		}
		return true
	})
	for obj, k := range inside {
		if total[obj] <= k {
			return true
		}
	}
	return false
}

// lineSpan extends the span of a statement to its whole line when it is
// alone there, so removing it leaves no blank line.
func (r *reporter) lineSpan(n ast.Node) (pos, end token.Pos) {
	pos, end = n.Pos(), n.End()
	tf := r.pass.Fset.File(pos)
	if tf == nil {
		return pos, end
	}
	content, err := r.pass.ReadFile(tf.Name())
	if err != nil || tf.Size() != len(content) {
		return pos, end
	}
	start := tf.Offset(pos)
	stop := tf.Offset(end)
	ls := start
	for ls > 0 && (content[ls-1] == ' ' || content[ls-1] == '\t') {
		ls--
	}
	le := stop
	for le < len(content) && (content[le] == ' ' || content[le] == '\t') {
		le++
	}
	if le+1 < len(content) && content[le] == '/' && content[le+1] == '/' {
		// A line comment describing the removed statement goes with it.
		for le < len(content) && content[le] != '\n' {
			le++
		}
	}
	if (ls == 0 || content[ls-1] == '\n') && (le == len(content) || content[le] == '\n') {
		if le < len(content) {
			le++
		}
		return tf.Pos(ls), tf.Pos(le)
	}
	return pos, end
}

// convertFix converts the key to the one type the map stores, when the
// conversion is valid and the type can be written in this file.
func (r *reporter) convertFix(key ast.Expr, kt types.Type, stored []types.Type) (goanalysis.SuggestedFix, bool) {
	if len(stored) != 1 || !types.ConvertibleTo(kt, stored[0]) {
		return goanalysis.SuggestedFix{}, false
	}
	name, ok := lockflow.TypeInFile(r.pass, r.src.File(key.Pos()), stored[0])
	if !ok || strings.ContainsAny(name, "*[]( ") {
		return goanalysis.SuggestedFix{}, false
	}
	return goanalysis.SuggestedFix{
		Message: "convert the key to " + name,
		TextEdits: []goanalysis.TextEdit{
			{Pos: key.Pos(), End: key.Pos(), NewText: []byte(name + "(")},
			{Pos: key.End(), End: key.End(), NewText: []byte(")")},
		},
	}, true
}

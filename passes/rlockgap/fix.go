package rlockgap

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/printer"
	"go/token"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/lockgap/lockgap/internal/lockflow"
)

// lazyInitFix re-checks under the write lock, for the lazy-initialisation
// shape
//
//	mu.RLock(); v, ok := m[k]; mu.RUnlock()
//	if ok { return v }
//	... (work outside the lock)
//	mu.Lock() [defer mu.Unlock()]
//
// by inserting after the Lock (and its deferred Unlock) the same lookup
// and the same early return:
//
//	if v, ok := m[k]; ok { mu.Unlock(); return v }
//
// It is offered only when that text is sure to compile and to move no call
// under the lock: the lookup and the early return are siblings of the Lock
// in one block, the lookup has no calls, and the return computes nothing.
func lazyInitFix(pass *analysis.Pass, src *lockflow.Source, g *lockflow.Gap) (analysis.SuggestedFix, bool) {
	if g.Kind != lockflow.LazyInit || g.BHelper {
		return analysis.SuggestedFix{}, false
	}
	read := src.ReadExpr(g.Read)
	if read == nil {
		return analysis.SuggestedFix{}, false
	}
	var assign *ast.AssignStmt
	var block *ast.BlockStmt
	for _, n := range src.Enclosing(read.Pos()) {
		switch n := n.(type) {
		case *ast.AssignStmt:
			if assign == nil && len(n.Rhs) == 1 && ast.Unparen(n.Rhs[0]) == read {
				assign = n
			}
		case *ast.BlockStmt:
			if assign != nil && block == nil {
				block = n
			}
		}
	}
	if assign == nil || block == nil || hasCall(assign.Rhs[0]) {
		return analysis.SuggestedFix{}, false
	}
	ai := indexOf(block.List, assign)
	li := -1
	for i, st := range block.List {
		if es, ok := st.(*ast.ExprStmt); ok {
			if c, ok := es.X.(*ast.CallExpr); ok && c.Lparen == g.BOpen {
				li = i
			}
		}
	}
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
	for _, r := range ret.Results {
		if hasCall(r) {
			return analysis.SuggestedFix{}, false
		}
	}
	// Nothing between the lookup and the Lock may redeclare what the
	// lookup or the return refer to.
	used := identNames(assign.Rhs[0], early.Cond, ret)
	for _, st := range block.List[ai+1 : li] {
		if declares(st, used) {
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

	lockStmt := block.List[li]
	insertAfter := lockStmt
	deferred := false
	if li+1 < len(block.List) {
		if d, ok := block.List[li+1].(*ast.DeferStmt); ok && isUnlockOf(d.Call, src.Receiver(g.BOpen)) {
			insertAfter, deferred = d, true
		}
	}
	indent := indentation(pass, lockStmt.Pos())
	var b strings.Builder
	fmt.Fprintf(&b, "\n%sif %s := %s; %s {\n", indent, strings.Join(lhs, ", "), render(pass, assign.Rhs[0]), render(pass, early.Cond))
	if !deferred {
		fmt.Fprintf(&b, "%s\t%s.Unlock()\n", indent, src.Receiver(g.BOpen))
	}
	fmt.Fprintf(&b, "%s\t%s\n%s}", indent, render(pass, ret), indent)
	at := lineEnd(pass, insertAfter.End())
	return analysis.SuggestedFix{
		Message: "re-check under the write lock",
		TextEdits: []analysis.TextEdit{{
			Pos:     at,
			End:     at,
			NewText: []byte(b.String()),
		}},
	}, true
}

func indexOf(list []ast.Stmt, st ast.Stmt) int {
	for i, s := range list {
		if s == st {
			return i
		}
	}
	return -1
}

func hasCall(n ast.Node) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.CallExpr, *ast.FuncLit:
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

// declares reports whether st declares, at its own level, one of names.
func declares(st ast.Stmt, names map[string]bool) bool {
	switch st := st.(type) {
	case *ast.AssignStmt:
		if st.Tok == token.DEFINE {
			for _, l := range st.Lhs {
				if id, ok := l.(*ast.Ident); ok && names[id.Name] {
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
		return declares(st.Stmt, names)
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

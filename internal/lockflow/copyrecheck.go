package lockflow

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
)

// Double-checked locking that checks the copy: section A copies shared
// state into a local, the code tests the local, takes the write lock and
// tests the local again, meaning to see whether another goroutine filled
// the state in between. The local cannot have changed; the second test
// is dead and every racer goes on to store. Reported whatever is stored
// (even a memo that racers compute alike): the code says it meant to
// check again, and the fix is one line.

// copyRechecked returns positions inside a test, in w's section h, of
// the very value read ri gave in section A, when that test and an earlier
// one outside h both decide w: a double check whose second test is of
// the copy A made, which cannot have changed, instead of the shared
// state. Nil when there is none.
func (fs *funcState) copyRechecked(ri int, w *writeSite, h heldLock) []token.Pos {
	var inner *ssa.If
	outer := false
	fs.eachDep(w.instr.Block(), func(d branch) {
		c := ifCond(d.block)
		if c == nil || iterationTest(d.block) {
			return
		}
		direct := false
		fs.directReads(c, func(r int) { direct = direct || r == ri })
		if !direct {
			return
		}
		test := d.block.Instrs[len(d.block.Instrs)-1].(*ssa.If)
		if sameSection(fs.heldAt(test), w.held, h.key) {
			inner = test
		} else {
			outer = true
		}
	})
	if inner == nil || !outer {
		return nil
	}
	// The test has no position of its own. Its condition does, when the
	// test computes it (not a boolean computed in A, "if !ok"); the first
	// statement on each side of it does too.
	var at []token.Pos
	if c, ok := inner.Cond.(ssa.Instruction); ok && c.Block() == inner.Block() && inner.Cond.Pos().IsValid() {
		at = append(at, inner.Cond.Pos())
	}
	for _, succ := range inner.Block().Succs {
		for _, instr := range succ.Instrs {
			if pos := instr.Pos(); pos.IsValid() {
				at = append(at, pos)
				break
			}
		}
	}
	return at
}

// copyRecheck is the syntax of a gap whose section B tests A's copy
// again: the assignment that made the copy, the if statement that tests
// it again, and the copy's name as that test writes it.
type copyRecheck struct {
	assign *ast.AssignStmt
	test   *ast.IfStmt
	name   string
}

// copyRecheckOf finds the syntax of g's re-test of a copy; ok is false
// when g has none or the source does not show it plainly.
func (s *Source) copyRecheckOf(g *Gap) (c copyRecheck, ok bool) {
	if len(g.CopyRecheck) == 0 {
		return c, false
	}
	read := s.ReadExpr(g.Read)
	if read == nil {
		return c, false
	}
	if c.assign, _ = s.assignmentOf(read); c.assign == nil {
		return c, false
	}
	copies := map[types.Object]bool{}
	for _, l := range c.assign.Lhs {
		id, isIdent := l.(*ast.Ident)
		if !isIdent {
			return c, false
		}
		if obj := s.object(id); obj != nil {
			copies[obj] = true
		}
	}
	// The innermost if statement around one of the positions, after B's
	// Lock, that tests the copy.
	for _, pos := range g.CopyRecheck {
		for _, n := range s.Enclosing(pos) {
			ifs, isIf := n.(*ast.IfStmt)
			if !isIf {
				continue
			}
			if ifs.Init == nil && ifs.Pos() > g.BOpen {
				ast.Inspect(ifs.Cond, func(n ast.Node) bool {
					if id, isIdent := n.(*ast.Ident); isIdent && c.name == "" && copies[s.object(id)] {
						c.name, c.test = id.Name, ifs
					}
					return c.name == ""
				})
			}
			break
		}
		if c.test != nil {
			return c, true
		}
	}
	return c, false
}

func (s *Source) object(id *ast.Ident) types.Object {
	if obj := s.pass.TypesInfo.Defs[id]; obj != nil {
		return obj
	}
	return s.pass.TypesInfo.Uses[id]
}

// copyRecheckWhy says what is wrong with the re-test, in the pass's
// wording.
func copyRecheckWhy(pass *analysis.Pass, c copyRecheck, g *Gap, w Wording) string {
	from := render(pass, c.assign.Rhs[0])
	missed := "did"
	if g.Kind == LazyInit {
		missed = "stored, and this store replaces it"
	}
	return fmt.Sprintf("%s, set from %s %s, is tested again %s; it cannot have changed, so the re-check never sees what another goroutine %s; set %s from %s again %s before testing it",
		c.name, from, w.ReadSection, w.ThisSection, missed, c.name, from, w.ThisSection)
}

// copyRereadFix reads the shared state into the copy again just before
// the re-test:
//
//	v := s.field        (section A)
//	...
//	s.mu.Lock()
//	v = s.field         (inserted)
//	if v != nil { ... }
//
// It is offered when the copy's assignment names only plain variables,
// its right-hand side calls nothing but len or cap, the re-test is a
// statement of a block, and every name the new line uses means there what
// it meant at the copy.
func copyRereadFix(pass *analysis.Pass, src *Source, c copyRecheck) (analysis.SuggestedFix, bool) {
	rhs := c.assign.Rhs[0]
	if hasCall(pass.TypesInfo, rhs, true) {
		return analysis.SuggestedFix{}, false
	}
	if path := src.Enclosing(c.test.Pos()); len(path) < 2 || !inStatementList(path[1]) {
		return analysis.SuggestedFix{}, false
	}
	scope := pass.Pkg.Scope().Innermost(c.test.Pos())
	if scope == nil {
		return analysis.SuggestedFix{}, false
	}
	sameHere := true
	check := func(id *ast.Ident) {
		if id.Name == "_" {
			return
		}
		if _, obj := scope.LookupParent(id.Name, c.test.Pos()); obj == nil || obj != src.object(id) {
			sameHere = false
		}
	}
	for _, l := range c.assign.Lhs {
		check(l.(*ast.Ident))
	}
	ast.Inspect(rhs, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			ast.Inspect(n.X, func(m ast.Node) bool {
				if id, ok := m.(*ast.Ident); ok {
					check(id)
				}
				return true
			})
			return false // the selected name is a field, not a variable
		case *ast.Ident:
			check(n)
		}
		return true
	})
	if !sameHere {
		return analysis.SuggestedFix{}, false
	}
	var lhs string
	for i, l := range c.assign.Lhs {
		if i > 0 {
			lhs += ", "
		}
		lhs += l.(*ast.Ident).Name
	}
	text := fmt.Sprintf("%s = %s\n%s", lhs, render(pass, rhs), indentation(pass, c.test.Pos()))
	return analysis.SuggestedFix{
		Message: "read the shared state again before the re-check",
		TextEdits: []analysis.TextEdit{{
			Pos:     c.test.Pos(),
			End:     c.test.Pos(),
			NewText: []byte(text),
		}},
	}, true
}

// inStatementList reports whether a statement whose parent is n sits in a
// list of statements, where another can be inserted before it.
func inStatementList(n ast.Node) bool {
	switch n.(type) {
	case *ast.BlockStmt, *ast.CaseClause, *ast.CommClause:
		return true
	}
	return false
}

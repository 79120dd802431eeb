package lockflow

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"
)

// splitLockedFix gives a helper that locks for its whole body a variant
// for callers that hold the lock, and calls it from the caller that does:
//
//	func (s *set) Keys() []string {
//		s.mu.RLock()
//		defer s.mu.RUnlock()
//		... the body
//	}
//
// becomes
//
//	func (s *set) Keys() []string {
//		s.mu.RLock()
//		defer s.mu.RUnlock()
//		return s.keysLocked()
//	}
//
//	// keysLocked is Keys for callers that hold s.mu.
//	func (s *set) keysLocked() []string {
//		... the body
//	}
//
// and s.Keys() under s.mu becomes s.keysLocked(). The helper does what it
// did, with its body one call deeper; the caller runs the body under the
// lock it holds, which is where the helper ran it. It is offered where
// the helper is this package's, not a generic function, names its
// receiver and parameters, takes the lock first and defers its release
// second, and does nothing else with that lock; where the caller holds
// the lock for writing or the helper only reads (a body that writes must
// not run under a read lock); where the variant's name is free; and not
// in a generated file.
// Every caller of the helper under the lock gets the same edits of the
// helper, which apply once.
func splitLockedFix(pass *analysis.Pass, src *Source, r Reentry) (analysis.SuggestedFix, bool) {
	none := analysis.SuggestedFix{}
	if r.Runner != RunnerNone || len(r.Via) > 0 || !r.Taken.IsValid() || r.HeldMode == Read && r.TakenMode == Write {
		return none, false
	}
	call := src.CallAt(r.Call)
	if call == nil {
		return none, false
	}
	name := calleeName(call)
	fn, ok := typeutil.Callee(pass.TypesInfo, call).(*types.Func)
	if name == nil || !ok || fn.Pkg() != pass.Pkg || fn.Name() != name.Name {
		return none, false
	}
	decl, recv, release, ok := lockingDecl(src, r)
	if !ok || decl.Name.Pos() != fn.Pos() || decl.Type.TypeParams != nil || len(decl.Body.List) < 3 {
		return none, false
	}
	// Generated code is not edited: it would be generated again.
	if path := src.Enclosing(decl.Pos()); len(path) == 0 {
		return none, false
	} else if f, ok := path[len(path)-1].(*ast.File); !ok || ast.IsGenerated(f) {
		return none, false
	}
	// The body does nothing else with the lock.
	rest := decl.Body.List[2:]
	for _, st := range rest {
		touches := false
		ast.Inspect(st, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok && types.ExprString(sel.X) == recv {
				switch sel.Sel.Name {
				case "Lock", "Unlock", "RLock", "RUnlock", "TryLock", "TryRLock", "RLocker":
					touches = true
				}
			}
			return !touches
		})
		if touches {
			return none, false
		}
	}
	// The variant is called with the helper's own names.
	var args []string
	variadic := false
	for _, field := range decl.Type.Params.List {
		if len(field.Names) == 0 {
			return none, false
		}
		for _, n := range field.Names {
			if n.Name == "_" {
				return none, false
			}
			args = append(args, n.Name)
		}
		_, variadic = field.Type.(*ast.Ellipsis)
	}
	if variadic {
		args[len(args)-1] += "..."
	}
	variant := lowerFirst(fn.Name()) + "Locked"
	callee := variant
	recvText := ""
	if decl.Recv != nil {
		if len(decl.Recv.List) != 1 || len(decl.Recv.List[0].Names) != 1 || decl.Recv.List[0].Names[0].Name == "_" {
			return none, false
		}
		sig := fn.Type().(*types.Signature)
		if obj, _, _ := types.LookupFieldOrMethod(sig.Recv().Type(), true, pass.Pkg, variant); obj != nil {
			return none, false
		}
		// Nor may the call's receiver have the name (a method or field of
		// an outer type the helper is promoted to).
		if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); !ok {
			return none, false
		} else if t := pass.TypesInfo.TypeOf(sel.X); t == nil {
			return none, false
		} else if obj, _, _ := types.LookupFieldOrMethod(t, true, pass.Pkg, variant); obj != nil {
			return none, false
		}
		callee = decl.Recv.List[0].Names[0].Name + "." + variant
		if recvText = text(pass, decl.Recv.Pos(), decl.Recv.End()); recvText == "" {
			return none, false
		}
		recvText += " "
	} else if pass.Pkg.Scope().Lookup(variant) != nil {
		return none, false
	} else if scope := pass.Pkg.Scope().Innermost(call.Pos()); scope == nil {
		return none, false
	} else if _, obj := scope.LookupParent(variant, call.Pos()); obj != nil {
		return none, false // a local of the caller has the name
	}
	// The text cut from the files must be what the compiler saw (not so
	// in a file cgo rewrote).
	whole := text(pass, decl.Pos(), decl.End())
	f, err := parser.ParseFile(token.NewFileSet(), "", "package p\n"+whole, 0)
	if err != nil || len(f.Decls) != 1 || text(pass, name.Pos(), name.End()) != name.Name {
		return none, false
	}
	if d, ok := f.Decls[0].(*ast.FuncDecl); !ok || d.Name.Name != fn.Name() || d.Body == nil || len(d.Body.List) != len(decl.Body.List) {
		return none, false
	}
	sigText := text(pass, decl.Type.Params.Pos(), decl.Type.End())
	// The body is cut from the end of the release's line: a comment
	// there stays with it.
	cut := lineEnd(pass, release.End())
	if cut >= decl.Body.List[2].Pos() || cut >= decl.Body.Rbrace {
		return none, false
	}
	body := text(pass, cut, decl.Body.Rbrace)
	if sigText == "" || body == "" {
		return none, false
	}
	forward := fmt.Sprintf("%s(%s)", callee, strings.Join(args, ", "))
	if decl.Type.Results != nil && len(decl.Type.Results.List) > 0 {
		forward = "return " + forward
	}
	lockName := recv
	doc := fmt.Sprintf("\n\n// %s is %s for callers that hold %s.\nfunc %s%s%s {%s}", variant, fn.Name(), lockName, recvText, variant, sigText, body)
	return analysis.SuggestedFix{
		Message: fmt.Sprintf("call %s, a variant of %s for callers that hold the lock", variant, fn.Name()),
		TextEdits: []analysis.TextEdit{
			{Pos: cut, End: decl.Body.Rbrace, NewText: []byte("\n\t" + forward + "\n")},
			{Pos: decl.End(), End: decl.End(), NewText: []byte(doc)},
			{Pos: name.Pos(), End: name.End(), NewText: []byte(variant)},
		},
	}, true
}

func lowerFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToLower(r)) + s[n:]
}

// text returns the source text from pos to end, or "" where it cannot be
// read as the compiler saw it.
func text(pass *analysis.Pass, pos, end token.Pos) string {
	tf := pass.Fset.File(pos)
	if tf == nil || pass.Fset.File(end) != tf {
		return ""
	}
	content, err := pass.ReadFile(tf.Name())
	if err != nil {
		return ""
	}
	start, stop := tf.Offset(pos), tf.Offset(end)
	if start < 0 || stop > len(content) || start > stop {
		return ""
	}
	return string(content[start:stop])
}

// calleeName returns the name a call is made by (s.Keys, keys), or nil.
func calleeName(call *ast.CallExpr) *ast.Ident {
	switch fun := ast.Unparen(call.Fun).(type) {
	case *ast.SelectorExpr:
		return fun.Sel
	case *ast.Ident:
		return fun
	}
	return nil
}

// lockingDecl returns the declaration of the helper a reentry calls when
// it opens with the lock the reentry names (at r.Taken) and the deferred
// release of that lock: the lock as the helper writes it, and the
// release.
func lockingDecl(src *Source, r Reentry) (decl *ast.FuncDecl, recv string, release *ast.DeferStmt, ok bool) {
	decl = enclosingFuncDecl(src, r.Taken)
	if decl == nil || decl.Body == nil || len(decl.Body.List) < 2 {
		return nil, "", nil, false
	}
	lock, ok := decl.Body.List[0].(*ast.ExprStmt)
	if !ok {
		return nil, "", nil, false
	}
	lockCall, ok := lock.X.(*ast.CallExpr)
	if !ok || lockCall.Lparen != r.Taken {
		return nil, "", nil, false
	}
	lockSel, ok := ast.Unparen(lockCall.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil, "", nil, false // a lock method value called
	}
	recv = types.ExprString(lockSel.X)
	release, ok = decl.Body.List[1].(*ast.DeferStmt)
	if !ok || !isReleaseOf(release.Call, recv) {
		return nil, "", nil, false
	}
	return decl, recv, release, true
}

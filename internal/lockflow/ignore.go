package lockflow

import (
	"go/ast"
	"go/token"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// An ignore directive silences findings of the passes it names:
//
//	//lockgap:ignore rlockgap,staleguard the cache is only filled at start-up
//
// on the line of a finding or the line above it, or in a function's doc
// comment (then for the whole function). The reason is required.
const directivePrefix = "//lockgap:ignore"

type directive struct {
	pos    token.Pos
	passes []string
	reason string
	used   map[string]bool // passes that suppressed a finding with it
	// The lines, or the function, it covers.
	file       string
	line       int
	start, end token.Pos
}

// Directives are the ignore directives of one package.
type Directives struct {
	fset *token.FileSet
	list []*directive
}

// ParseDirectives collects the package's directives.
func ParseDirectives(pass *analysis.Pass) *Directives {
	d := &Directives{fset: pass.Fset}
	for _, f := range pass.Files {
		funcDoc := map[*ast.CommentGroup]*ast.FuncDecl{}
		for _, decl := range f.Decls {
			if fd, ok := decl.(*ast.FuncDecl); ok && fd.Doc != nil {
				funcDoc[fd.Doc] = fd
			}
		}
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				text, ok := strings.CutPrefix(c.Text, directivePrefix)
				if !ok || (text != "" && text[0] != ' ' && text[0] != '\t') {
					continue
				}
				// A comment after the directive ("// want ...") is not
				// its reason.
				text, _, _ = strings.Cut(text, "//")
				fields := strings.Fields(text)
				dir := &directive{pos: c.Pos()}
				if len(fields) > 0 {
					dir.passes = strings.Split(fields[0], ",")
					dir.reason = strings.Join(fields[1:], " ")
				}
				p := pass.Fset.Position(c.Pos())
				dir.file, dir.line = p.Filename, p.Line
				if fd, ok := funcDoc[cg]; ok {
					dir.start, dir.end = fd.Pos(), fd.End()
				}
				d.list = append(d.list, dir)
			}
		}
	}
	return d
}

// Suppresses reports whether a directive for pass name covers pos.
func (d *Directives) Suppresses(name string, pos token.Pos) bool {
	if len(d.list) == 0 {
		return false
	}
	p := d.fset.Position(pos)
	for _, dir := range d.list {
		if dir.reason == "" || !slices.Contains(dir.passes, name) {
			continue
		}
		if (dir.start.IsValid() && dir.start <= pos && pos < dir.end) ||
			(dir.file == p.Filename && (dir.line == p.Line || dir.line == p.Line-1)) {
			if dir.used == nil {
				dir.used = map[string]bool{}
			}
			dir.used[name] = true
			return true
		}
	}
	return false
}

// ReportMalformed reports, once (by the first pass a directive names, or
// by name when it names none), directives without a reason.
func (d *Directives) ReportMalformed(pass *analysis.Pass, name string, first bool) {
	for _, dir := range d.list {
		owner := first
		if len(dir.passes) > 0 {
			owner = dir.passes[0] == name
		}
		if owner && dir.reason == "" {
			pass.Reportf(dir.pos, "lockgap:ignore needs the passes it silences and a reason: //lockgap:ignore PASS[,PASS] reason")
		}
	}
}

// Reporter returns pass.Report filtered by the package's directives for
// the named pass, after reporting malformed directives (first marks the
// pass that owns directives naming no pass), and a function to call when
// the pass is done: with unused set, it reports the directives naming
// this pass that silenced none of its findings.
func Reporter(pass *analysis.Pass, name string, first, unused bool) (report func(analysis.Diagnostic), done func()) {
	d := ParseDirectives(pass)
	d.ReportMalformed(pass, name, first)
	src := NewSource(pass)
	report = func(diag analysis.Diagnostic) {
		if !diag.Pos.IsValid() && len(diag.Related) > 0 {
			// Code go/ssa gives no position (a range over a function's
			// iterator call) that the engine could not place: at the
			// stale read rather than nowhere, which drivers print as "-"
			// and tools cannot open.
			diag.Pos, diag.End = diag.Related[0].Pos, diag.Related[0].End
		}
		if !diag.Pos.IsValid() {
			return
		}
		if !d.Suppresses(name, diag.Pos) {
			pass.Report(spanned(src, diag))
		}
	}
	done = func() {
		if !unused {
			return
		}
		for _, dir := range d.list {
			if dir.reason != "" && slices.Contains(dir.passes, name) && !dir.used[name] {
				pass.Reportf(dir.pos, "lockgap:ignore names %s but silences none of its findings", name)
			}
		}
	}
	return report, done
}

// UnusedIgnoresFlag is the name of the flag, on every pass, that turns on
// reports of directives that silence nothing (lockgap -unused-ignores sets
// it for all passes).
const UnusedIgnoresFlag = "unused_ignores"

// spanned gives a finding, and each place its related information points
// at, the extent of the expression there, so that editors and SARIF
// viewers underline d.mu.Lock() rather than mark its parenthesis.
func spanned(src *Source, d analysis.Diagnostic) analysis.Diagnostic {
	if !d.End.IsValid() {
		d.Pos, d.End = src.Extent(d.Pos)
	}
	if len(d.Related) > 0 {
		d.Related = slices.Clone(d.Related)
		for i := range d.Related {
			if r := &d.Related[i]; !r.End.IsValid() {
				r.Pos, r.End = src.Extent(r.Pos)
			}
		}
	}
	return d
}

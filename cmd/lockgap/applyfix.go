package main

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"io"
	"maps"
	"os"
	"slices"
)

// Applying fixes from an in-process report. The report run already holds
// every finding's fix, settled against the callers in other packages, so
// -fix writes them itself instead of having go vet analyse everything
// again. It follows go vet -fix: the first fix of each finding, whole or
// not at all; a fix whose edits overlap one already taken (other than the
// very same edit, which a package and its test variant both report) is
// left out and the run says so and fails, to be run again; no fix edits a
// generated file; and each file edited is formatted (kept as edited when
// it does not format). lockgap's fixes add and remove no imports, so
// unlike go vet it need not tidy them.
//
// It applies fixes only to files the report type-checked as they are on
// disk: where a root package uses cgo, the positions are in the files cgo
// generates, and -fix goes through go vet as before. With -diff it writes
// no file but prints what it would write (unified.go).

// fixableFiles lists the Go files of the packages asked for (their tests
// included), by absolute path, and whether an in-process fix run can
// edit them all: false when one of the packages uses cgo.
func fixableFiles(pkgs []*listedPackage) (map[string]bool, bool) {
	files := map[string]bool{}
	for _, p := range pkgs {
		if p.DepOnly || !fromSource(p) {
			continue
		}
		if len(p.CgoFiles) > 0 {
			return nil, false
		}
		for _, name := range p.GoFiles {
			files[absIn(p.Dir, name)] = true
		}
	}
	return files, true
}

// errNotFixable: some fix edits a file other than the Go files of the
// packages asked for as they are on disk (a //line directive names
// another); nothing is written, and go vet applies the fixes instead.
var errNotFixable = errors.New("a fix edits a file the run did not read as it is on disk")

// fileEdit is one edit of a fix, as offsets into its file.
type fileEdit struct {
	start, end int
	text       string
}

// applyFixes writes the fixes of findings (a tree keep returned) to
// the files, which must all be in fixable (else errNotFixable, before it
// writes anything), or, given diff, prints to it what it would write. It
// returns how many fixes it applied out of how many, and an error when
// it left some out or could not write a file.
func applyFixes(findings jsonTree, fixable map[string]bool, diff io.Writer) (applied, total int, err error) {
	type fix struct{ edits map[string][]fileEdit }
	var fixes []fix
	seen := map[string]bool{}
	for _, id := range slices.Sorted(maps.Keys(findings)) {
		for _, pass := range slices.Sorted(maps.Keys(findings[id])) {
			for _, d := range findings[id][pass] {
				if len(d.SuggestedFixes) == 0 {
					continue
				}
				var jf jsonFix
				if err := json.Unmarshal(d.SuggestedFixes[0], &jf); err != nil {
					return 0, 0, fmt.Errorf("reading the fix at %s: %v", d.Posn, err)
				}
				if key := string(d.SuggestedFixes[0]); seen[key] {
					continue // the same fix, from the package's test variant
				} else {
					seen[key] = true
				}
				f := fix{edits: map[string][]fileEdit{}}
				for _, e := range jf.Edits {
					if !fixable[e.Filename] {
						return 0, 0, errNotFixable
					}
					f.edits[e.Filename] = append(f.edits[e.Filename], fileEdit{e.Start, e.End, e.New})
				}
				fixes = append(fixes, f)
			}
		}
	}
	total = len(fixes)
	contents := map[string][]byte{}
	generated := map[string]bool{}
	taken := map[string][]fileEdit{}
	skipped := 0
fixes:
	for _, f := range fixes {
		for _, name := range slices.Sorted(maps.Keys(f.edits)) {
			if _, ok := contents[name]; !ok {
				data, err := os.ReadFile(name)
				if err != nil {
					return applied, total, err
				}
				contents[name] = data
				generated[name] = isGenerated(name, data)
			}
			if generated[name] {
				skipped++
				continue fixes
			}
			for _, e := range f.edits[name] {
				if e.start < 0 || e.start > e.end || e.end > len(contents[name]) {
					return applied, total, fmt.Errorf("a fix's edit of %s lies outside the file: was it changed during the run?", name)
				}
				for _, t := range taken[name] {
					if e != t && (e.start < t.end && t.start < e.end || e.start == t.start) {
						continue fixes // conflicts with a fix already taken
					}
				}
			}
		}
		for name, edits := range f.edits {
			for _, e := range edits {
				if !slices.Contains(taken[name], e) {
					taken[name] = append(taken[name], e)
				}
			}
		}
		applied++
	}
	for _, name := range slices.Sorted(maps.Keys(taken)) {
		edits := taken[name]
		// Later edits first, so that earlier offsets stay valid; an
		// insertion before a replacement starting at the same offset.
		slices.SortFunc(edits, func(a, b fileEdit) int { return cmp.Or(cmp.Compare(b.start, a.start), cmp.Compare(b.end, a.end)) })
		out := slices.Clone(contents[name])
		for _, e := range edits {
			out = slices.Concat(out[:e.start], []byte(e.text), out[e.end:])
		}
		if formatted, err := format.Source(out); err == nil {
			out = formatted
		}
		if diff != nil {
			if _, err := io.WriteString(diff, unifiedDiff(name, contents[name], out)); err != nil {
				return applied, total, err
			}
			continue
		}
		info, err := os.Stat(name)
		if err != nil {
			return applied, total, err
		}
		if err := os.WriteFile(name, out, info.Mode().Perm()); err != nil {
			return applied, total, err
		}
	}
	if applied+skipped < total {
		return applied, total, fmt.Errorf("applied %d of %d fixes; the others conflict with those applied: run lockgap -fix again to apply more", applied, total)
	}
	return applied, total, nil
}

// isGenerated reports whether the Go file name, with contents data, says
// it is generated ("// Code generated ... DO NOT EDIT.").
func isGenerated(name string, data []byte) bool {
	f, err := parser.ParseFile(token.NewFileSet(), name, data, parser.PackageClauseOnly|parser.ParseComments)
	return err == nil && ast.IsGenerated(f)
}

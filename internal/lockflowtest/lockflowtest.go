// Package lockflowtest holds test helpers shared by the passes' tests.
package lockflowtest

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
)

// TestData returns the repository's testdata directory, seen from a pass's
// package directory.
func TestData() string {
	d, err := filepath.Abs(filepath.Join("..", "..", "testdata"))
	if err != nil {
		panic(err)
	}
	return d
}

var want = regexp.MustCompile("// want `[^`]*`")

// FixedIsClean writes the .golden files of each package, without their
// expectations, to a fresh GOPATH-style tree and analyses them again: a
// fix must compile and must not be reported again.
func FixedIsClean(t *testing.T, a *analysis.Analyzer, pkgs ...string) {
	t.Helper()
	FixedIsCleanWith(t, a, nil, pkgs...)
}

// FixedIsCleanWith is FixedIsClean for fixed files that import other
// fixture packages (support), which are copied as they are.
func FixedIsCleanWith(t *testing.T, a *analysis.Analyzer, support []string, pkgs ...string) {
	t.Helper()
	dir := t.TempDir()
	for _, pkg := range support {
		copyFiles(t, filepath.Join(TestData(), "src", pkg, "*.go"), filepath.Join(dir, "src", pkg), nil)
	}
	for _, pkg := range pkgs {
		copyFiles(t, filepath.Join(TestData(), "src", pkg, "*.golden"), filepath.Join(dir, "src", pkg), func(data []byte) []byte {
			return want.ReplaceAll(data, nil)
		})
		analysistest.Run(t, dir, a, pkg)
	}
}

// RunWithSuggestedFixes is analysistest's, and then checks that every
// file whose .golden differs from it was given a fix: analysistest
// compares only the files the run fixed, so a fix lost everywhere in a
// file would pass unseen.
func RunWithSuggestedFixes(t *testing.T, a *analysis.Analyzer, pkgs ...string) []*analysistest.Result {
	t.Helper()
	results := analysistest.RunWithSuggestedFixes(t, TestData(), a, pkgs...)
	var fixed []string
	for _, r := range results {
		for _, d := range r.Diagnostics {
			if len(d.SuggestedFixes) > 0 {
				fixed = append(fixed, filepath.ToSlash(r.Pass.Fset.File(d.Pos).Name()))
			}
		}
	}
	for _, pkg := range pkgs {
		goldens, _ := filepath.Glob(filepath.Join(TestData(), "src", pkg, "*.go.golden"))
		for _, golden := range goldens {
			src := strings.TrimSuffix(golden, ".golden")
			before, err1 := os.ReadFile(src)
			after, err2 := os.ReadFile(golden)
			if err1 != nil || err2 != nil || bytes.Equal(before, after) {
				continue
			}
			suffix := "/src/" + pkg + "/" + filepath.Base(src)
			if !slices.ContainsFunc(fixed, func(name string) bool { return strings.HasSuffix(name, suffix) }) {
				t.Errorf("%s: its .golden file has fixes, but none was offered", src)
			}
		}
	}
	return results
}

// copyFiles copies the files matching glob into dir, dropping a .golden
// suffix and passing their contents through edit, if any.
func copyFiles(t *testing.T, glob, dir string, edit func([]byte) []byte) {
	t.Helper()
	files, err := filepath.Glob(glob)
	if err != nil || len(files) == 0 {
		t.Fatalf("no files match %s", glob)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if edit != nil {
			data = edit(data)
		}
		name := strings.TrimSuffix(filepath.Base(f), ".golden")
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

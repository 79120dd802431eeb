// Package lockflowtest holds test helpers shared by the passes' tests.
package lockflowtest

import (
	"os"
	"path/filepath"
	"regexp"
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
	dir := t.TempDir()
	for _, pkg := range pkgs {
		golden, err := filepath.Glob(filepath.Join(TestData(), "src", pkg, "*.golden"))
		if err != nil || len(golden) == 0 {
			t.Fatalf("no golden files for %s", pkg)
		}
		out := filepath.Join(dir, "src", pkg)
		if err := os.MkdirAll(out, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, g := range golden {
			data, err := os.ReadFile(g)
			if err != nil {
				t.Fatal(err)
			}
			name := strings.TrimSuffix(filepath.Base(g), ".golden")
			if err := os.WriteFile(filepath.Join(out, name), want.ReplaceAll(data, nil), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		analysistest.Run(t, dir, a, pkg)
	}
}

package mutexmapdelete_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/lockgap/lockgap/passes/mutexmapdelete"
)

func testdata() string {
	d, err := filepath.Abs(filepath.Join("..", "..", "testdata"))
	if err != nil {
		panic(err)
	}
	return d
}

func TestMutexMapDelete(t *testing.T) {
	analysistest.Run(t, testdata(), mutexmapdelete.Analyzer,
		"mutexmapseed", "mutexmapplain", "mutexmapsafe", "mutexmapkeys", "mutexmapwrap", "mutexmapgeneric")
}

func TestFixes(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, testdata(), mutexmapdelete.Analyzer, "mutexmapfix", "mutexmapkeyfix")
}

// TestFixedIsClean type-checks the fixed files and analyses them again:
// a fix must compile and must not be reported again.
func TestFixedIsClean(t *testing.T) {
	dir := t.TempDir()
	copyPackage(t, dir, "mutexmaptypes")
	for _, pkg := range []string{"mutexmapfix", "mutexmapkeyfix"} {
		golden, err := filepath.Glob(filepath.Join(testdata(), "src", pkg, "*.golden"))
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
			clean := regexp.MustCompile("// want `[^`]*`").ReplaceAll(data, nil)
			name := strings.TrimSuffix(filepath.Base(g), ".golden")
			if err := os.WriteFile(filepath.Join(out, name), clean, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		analysistest.Run(t, dir, mutexmapdelete.Analyzer, pkg)
	}
}

// copyPackage copies a fixture package the fixed files import.
func copyPackage(t *testing.T, dir, pkg string) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(testdata(), "src", pkg, "*.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no files for %s", pkg)
	}
	out := filepath.Join(dir, "src", pkg)
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(out, filepath.Base(f)), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

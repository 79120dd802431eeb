package main

import (
	"encoding/json"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// fixtureWant matches a diagnostic expectation (// want `...`), not a
// fact's (// want Name:`...`).
var fixtureWant = regexp.MustCompile("// want [`\"]")

// Fixture folders the driver is not expected to report as the test
// harness does: ignores' expectations include what -unused-ignores
// reports; the findings of freshentries, initentries and lockedentries
// hold only if some caller outside their package hands a shared object,
// runs after initialisation or holds no lock, which the driver, seeing
// the whole module, settles (TestFreshEntries, TestInitEntries and
// TestLockedEntries cover that).
var driverSkips = []string{"ignores", "freshentries", "initentries", "lockedentries"}

// TestDriverSeesFixtureWants runs lockgap, as users do, over every
// fixture package (but those importing stubs of other modules) and checks
// that it reports on exactly the lines the fixtures expect findings on.
// The fixtures are checked through the test harness; the driver loads,
// type-checks and builds SSA its own way, and a shape matched on SSA
// instructions can differ between the two (a function with a defer keeps
// its results in locals in one).
func TestDriverSeesFixtureWants(t *testing.T) {
	if testing.Short() {
		t.Skip("builds lockgap and runs the go command")
	}
	root := filepath.Join("..", "..", "testdata", "src")
	files := map[string]string{"go.mod": "module example.com/fixtures\n\ngo 1.26.0\n"}
	want := map[string]bool{} // "dir/file.go:line"
	err := filepath.WalkDir(root, func(dir string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, dir)
		if strings.Contains(strings.Split(rel, string(filepath.Separator))[0], ".") ||
			slices.ContainsFunc(driverSkips, func(s string) bool { return rel == s || strings.HasPrefix(rel, s+string(filepath.Separator)) }) {
			return nil // stubs of other modules, or skipped
		}
		names, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		srcs := map[string]string{}
		for _, name := range names {
			data, err := os.ReadFile(name)
			if err != nil {
				return err
			}
			f, err := parser.ParseFile(token.NewFileSet(), name, data, parser.ImportsOnly)
			if err != nil {
				return err
			}
			src := string(data)
			for _, imp := range f.Imports {
				path, _ := strconv.Unquote(imp.Path.Value)
				if _, err := os.Stat(filepath.Join(root, path)); err != nil {
					continue
				}
				if strings.Contains(strings.Split(path, "/")[0], ".") {
					// A stub of another module: the engine knows some
					// (frameworks) by their paths, which cannot move.
					return nil
				}
				// Another fixture, imported GOPATH-style: from the module.
				src = strings.ReplaceAll(src, imp.Path.Value, strconv.Quote("example.com/fixtures/"+path))
			}
			srcs[filepath.Join(rel, filepath.Base(name))] = src
		}
		for name, src := range srcs {
			files[name] = src
			for i, line := range strings.Split(src, "\n") {
				if fixtureWant.MatchString(line) {
					want[name+":"+strconv.Itoa(i+1)] = true
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d expected findings in %d files", len(want), len(files)-1)
	if len(want) < 100 {
		t.Fatalf("found only %d expected findings", len(want))
	}
	tmp := t.TempDir()
	bin, mod, _, run := setUpModule(t, tmp, files)
	out, code := run(bin, "-json", "./...")
	if code != 3 {
		t.Fatalf("lockgap -json: exit %d, want 3\n%s", code, out)
	}
	var tree map[string]map[string]json.RawMessage
	if err := json.Unmarshal([]byte(out), &tree); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	got := map[string]bool{}
	for pkg, byPass := range tree {
		for pass, raw := range byPass {
			var diags []struct{ Posn string }
			if err := json.Unmarshal(raw, &diags); err != nil {
				t.Errorf("%s %s: %s", pkg, pass, raw) // an error, not findings
				continue
			}
			for _, d := range diags {
				posn := strings.TrimPrefix(d.Posn, mod+string(filepath.Separator))
				if i := strings.LastIndex(posn, ":"); i >= 0 {
					posn = posn[:i] // drop the column
				}
				got[posn] = true
			}
		}
	}
	for w := range want {
		if !got[w] {
			t.Errorf("%s: the fixture expects a finding, the driver reports none", w)
		}
	}
	for g := range got {
		if !want[g] {
			t.Errorf("%s: the driver reports a finding the fixture does not expect", g)
		}
	}
}

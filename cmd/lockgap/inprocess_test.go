package main

import (
	"maps"
	"slices"
	"testing"

	"golang.org/x/tools/go/analysis"
)

// The in-process run chooses its passes as multichecker chooses them
// under go vet: =true names the only passes to run, =false leaves one
// out; prerequisites run first.
func TestSelectAnalyzers(t *testing.T) {
	names := func(as []*analysis.Analyzer) []string {
		var out []string
		for _, a := range as {
			out = append(out, a.Name)
		}
		return out
	}
	for _, tc := range []struct {
		flags []string
		want  []string
	}{
		{nil, []string{"lockflow", "rlockgap", "staleguard", "mutexmapdelete"}},
		{[]string{"-staleguard=false"}, []string{"lockflow", "rlockgap", "mutexmapdelete"}},
		{[]string{"-mutexmapdelete=true"}, []string{"lockflow", "mutexmapdelete"}},
	} {
		order, err := selectAnalyzers(tc.flags)
		if err != nil {
			t.Fatal(err)
		}
		if got := names(order); !slices.Equal(got, tc.want) {
			t.Errorf("%v: runs %v, want %v", tc.flags, got, tc.want)
		}
	}
}

// vetAnalyses: the packages whose findings go vet would print.
func TestVetAnalyses(t *testing.T) {
	hasVariant := map[string]bool{"example.com/a": true}
	imported := map[string]bool{"example.com/b": true}
	for _, tc := range []struct {
		p    listedPackage
		want bool
	}{
		{listedPackage{ImportPath: "example.com/a"}, false}, // its test variant stands for it
		{listedPackage{ImportPath: "example.com/a [example.com/a.test]"}, true},
		{listedPackage{ImportPath: "example.com/a.test"}, false},
		{listedPackage{ImportPath: "example.com/b"}, true},
		{listedPackage{ImportPath: "sync", Standard: true}, false},
	} {
		if got := vetAnalyses(&tc.p, hasVariant, imported); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.p.ImportPath, got, tc.want)
		}
	}
}

// A run with packages that failed: their errors under go vet's headers,
// once each, the packages asked for that failed (their own errors or a
// dependency's), and, with -test=false, a failed test variant's package
// reported as analysed without its tests.
func TestSettleFailures(t *testing.T) {
	finding := map[string][]jsonDiagnostic{"rlockgap": {{Posn: "cache/cache.go:9:2", Message: "gap"}}}
	graph := analysedGraph{
		Tree: jsonTree{"example.com/m/ok": finding},
		Errors: map[string][]string{
			"example.com/m/base":                             {"base/base.go:3:13: cannot use x"},
			"example.com/m/cache [example.com/m/cache.test]": {"cache/cache_test.go:3:9: undefined: y"},
		},
		Skipped:  []string{"example.com/m/uses", "example.com/m/cache_test [example.com/m/cache.test]", "example.com/m/ok_test [example.com/m/ok.test]"},
		Untested: jsonTree{"example.com/m/cache": finding},
	}
	roots := map[string]bool{"example.com/m/ok": true, "example.com/m/base": true, "example.com/m/uses": true, "example.com/m/cache": true}

	tree, stderr, failed := graph.settle(roots, true)
	wantErrs := "# example.com/m/base\nbase/base.go:3:13: cannot use x\n" +
		"# example.com/m/cache [example.com/m/cache.test]\ncache/cache_test.go:3:9: undefined: y\n"
	if string(stderr) != wantErrs {
		t.Errorf("errors:\n%s\nwant:\n%s", stderr, wantErrs)
	}
	// ok's external tests failed: so did ok, as go vet has it.
	if got := slices.Sorted(maps.Keys(failed)); !slices.Equal(got, []string{"example.com/m/base", "example.com/m/cache", "example.com/m/ok", "example.com/m/uses"}) {
		t.Errorf("failed %q", got)
	}
	if got := slices.Sorted(maps.Keys(tree)); !slices.Equal(got, []string{"example.com/m/ok"}) {
		t.Errorf("with tests, findings of %q", got)
	}

	tree, stderr, failed = graph.settle(roots, false)
	if want := "# example.com/m/base\nbase/base.go:3:13: cannot use x\n"; string(stderr) != want {
		t.Errorf("-test=false errors:\n%s\nwant:\n%s", stderr, want)
	}
	if got := slices.Sorted(maps.Keys(failed)); !slices.Equal(got, []string{"example.com/m/base", "example.com/m/uses"}) {
		t.Errorf("-test=false failed %q", got)
	}
	if got := slices.Sorted(maps.Keys(tree)); !slices.Equal(got, []string{"example.com/m/cache", "example.com/m/ok"}) {
		t.Errorf("-test=false, findings of %q", got)
	}
	if len(graph.Tree) != 1 {
		t.Errorf("settle changed the graph's tree: %v", graph.Tree)
	}
}

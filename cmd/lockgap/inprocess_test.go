package main

import (
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

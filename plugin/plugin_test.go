package plugin

import (
	"go/token"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/lockgap/lockgap/passes/rlockgap"
)

func names(t *testing.T, settings any) []string {
	t.Helper()
	p, err := New(settings)
	if err != nil {
		t.Fatal(err)
	}
	as, err := p.BuildAnalyzers()
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, a := range as {
		out = append(out, a.Name)
	}
	return out
}

func TestSettings(t *testing.T) {
	if got := strings.Join(names(t, nil), ","); got != "rlockgap,staleguard,mutexmapdelete" {
		t.Errorf("default passes = %s", got)
	}
	if got := strings.Join(names(t, map[string]any{"staleguard": false}), ","); got != "rlockgap,mutexmapdelete" {
		t.Errorf("with staleguard off = %s", got)
	}
	if _, err := New(map[string]any{"stalegaurd": false}); err == nil || !strings.Contains(err.Error(), `unknown key "stalegaurd"`) {
		t.Errorf("misspelt pass accepted: %v", err)
	}
	if _, err := New(map[string]any{"rlockgap": "yes"}); err == nil {
		t.Error("non-boolean setting accepted")
	}
}

func TestRegistered(t *testing.T) {
	newPlugin, err := register.GetPlugin("lockgap")
	if err != nil {
		t.Fatal(err)
	}
	p, err := newPlugin(nil)
	if err != nil {
		t.Fatal(err)
	}
	if p.GetLoadMode() != register.LoadModeTypesInfo {
		t.Errorf("load mode %q", p.GetLoadMode())
	}
}

func TestFold(t *testing.T) {
	fset := token.NewFileSet()
	a := fset.AddFile("a.go", -1, 100)
	a.SetLines([]int{0, 10, 20, 30})
	b := fset.AddFile("dir/b.go", -1, 100)
	b.SetLines([]int{0, 10})
	d := fold(fset, analysis.Diagnostic{
		Pos:     a.Pos(35),
		Message: "m.mu is locked again",
		Related: []analysis.RelatedInformation{
			{Pos: a.Pos(12), Message: "v read under the read lock here"},
			{Pos: b.Pos(15), Message: "lock released here"},
			{Pos: token.NoPos, Message: "somewhere"},
		},
	})
	want := "m.mu is locked again (v read under the read lock at line 2, lock released at b.go:2, somewhere)"
	if d.Message != want || d.Related != nil {
		t.Errorf("fold = %q, %v; want %q and no related information", d.Message, d.Related, want)
	}
	if d := fold(fset, analysis.Diagnostic{Message: "plain"}); d.Message != "plain" {
		t.Errorf("fold without related information = %q", d.Message)
	}
}

// TestFolded runs the plugin's rlockgap: one diagnostic per finding, the
// read and the unlock in its message, and the fix still offered.
func TestFolded(t *testing.T) {
	p, err := New(map[string]any{"staleguard": false, "mutexmapdelete": false})
	if err != nil {
		t.Fatal(err)
	}
	as, _ := p.BuildAnalyzers()
	if len(as) != 1 || as[0].Name != "rlockgap" || as[0] == rlockgap.Analyzer {
		t.Fatalf("analyzers %v; want a copy of rlockgap", as)
	}
	testdata, err := filepath.Abs(filepath.Join("..", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	results := analysistest.RunWithSuggestedFixes(t, testdata, as[0], "lazyinitfix")
	var msgs []string
	for _, r := range results {
		for _, d := range r.Diagnostics {
			if d.Related != nil {
				t.Errorf("related information left in %q", d.Message)
			}
			msgs = append(msgs, d.Message)
		}
	}
	want := "(cl read under the read lock at line 18, lock released at line 19)"
	if !slices.ContainsFunc(msgs, func(m string) bool { return strings.HasSuffix(m, want) }) {
		t.Errorf("no message of %q ends in %q", msgs, want)
	}
}

package plugin

import (
	"strings"
	"testing"

	"github.com/golangci/plugin-module-register/register"
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

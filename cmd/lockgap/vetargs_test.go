package main

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestVetArgs checks how the driver's flags change the config go vet hands
// the tool for a package seen only as a dependency.
func TestVetArgs(t *testing.T) {
	write := func(cfg map[string]any) string {
		data, err := json.Marshal(cfg)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(t.TempDir(), "vet.cfg")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	vetxOnly := func(args []string) bool {
		data, err := os.ReadFile(args[len(args)-1])
		if err != nil {
			t.Fatal(err)
		}
		var cfg map[string]any
		if err := json.Unmarshal(data, &cfg); err != nil {
			t.Fatal(err)
		}
		return cfg["VetxOnly"] == true
	}
	std := map[string]any{"ImportPath": "net/http", "ModulePath": "", "VetxOnly": true}
	mod := map[string]any{"ImportPath": "example.com/m/p", "ModulePath": "example.com/m", "VetxOnly": true}
	for _, tc := range []struct {
		name         string
		cfg          map[string]any
		flags        []string
		wantVetxOnly bool
		wantAnswered bool
	}{
		{"plain go vet keeps dependencies facts-only", mod, nil, true, false},
		{"driver analyses module dependencies fully", mod, []string{"-" + allFlag}, false, false},
		{"driver analyses std fully when std was asked for", std, []string{"-" + allFlag}, false, false},
		{"driver skips std dependencies", std, []string{"-" + allFlag, "-" + skipStdFlag}, true, true},
		{"module packages are never skipped", mod, []string{"-" + allFlag, "-" + skipStdFlag}, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			vetx := filepath.Join(t.TempDir(), "vet.out")
			cfg := maps.Clone(tc.cfg)
			cfg["VetxOutput"] = vetx
			args := append(append([]string{"lockgap"}, tc.flags...), write(cfg))
			got, answered := vetArgs(args)
			if vetxOnly(got) != tc.wantVetxOnly || answered != tc.wantAnswered {
				t.Errorf("VetxOnly=%v answered=%v, want %v %v", vetxOnly(got), answered, tc.wantVetxOnly, tc.wantAnswered)
			}
			// An answered config leaves an empty facts file for the go
			// command to cache; dependents read it as "no facts".
			if data, err := os.ReadFile(vetx); answered && (err != nil || len(data) != 0) {
				t.Errorf("answered without an empty facts file: %q, %v", data, err)
			}
		})
	}
}

func TestMayNameStd(t *testing.T) {
	for patterns, want := range map[string]bool{
		"./...":                      false,
		"../x ./y":                   false,
		"/abs/dir":                   false,
		"example.com/m/...":          false,
		"std":                        true,
		"net/http":                   true,
		"cmd/go/...":                 true,
		"example.com/m/... net/http": true,
		"lockgap-examples/...":       true, // a dotless module path: std is analysed, only slower
	} {
		if got := mayNameStd(strings.Fields(patterns)); got != want {
			t.Errorf("mayNameStd(%q) = %v, want %v", patterns, got, want)
		}
	}
}

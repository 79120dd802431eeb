package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A driver registry: Register tests for a duplicate in one section and
// inserts in a second. Every plugin registers from its package's
// initialisation (an init function, a package variable), which runs one
// package at a time, so the gap cannot be raced; only a run over the
// whole module can see that.
var registryModule = map[string]string{
	"go.mod": "module example.com/reg\n\ngo 1.26.0\n",
	"registry/registry.go": `package registry

import (
	"fmt"
	"sync"
)

type Creator func() any

var (
	mu       sync.Mutex
	creators = map[string]Creator{}
)

// Register makes a driver available by name.
func Register(name string, c Creator) error {
	mu.Lock()
	_, dup := creators[name]
	mu.Unlock()
	if dup {
		return fmt.Errorf("driver %q registered twice", name)
	}
	mu.Lock()
	creators[name] = c
	mu.Unlock()
	return nil
}

// MustRegister is Register for callers that cannot go on without it.
func MustRegister(name string, c Creator) {
	if err := Register(name, c); err != nil {
		panic(err)
	}
}

func New(name string) any {
	mu.Lock()
	c := creators[name]
	mu.Unlock()
	if c == nil {
		return nil
	}
	return c()
}
`,
	"plugins/disk/disk.go": `package disk

import "example.com/reg/registry"

func init() {
	registry.MustRegister("disk", func() any { return "disk" })
}
`,
	"plugins/mem/mem.go": `package mem

import "example.com/reg/registry"

var registered = register("mem")

func register(name string) bool {
	return registry.Register(name, func() any { return name }) == nil
}
`,
	"cmd/app/main.go": `package main

import (
	"fmt"

	_ "example.com/reg/plugins/disk"
	_ "example.com/reg/plugins/mem"
	"example.com/reg/registry"
)

func main() { fmt.Println(registry.New("disk")) }
`,
}

const registryFinding = "registry.go:23:9: mu is locked again after the section that checked"

// TestInitEntries: the driver drops a gap whose every caller in the
// module runs at package initialisation, and keeps it when it cannot see
// every caller, when one runs later, and under go vet.
func TestInitEntries(t *testing.T) {
	if testing.Short() {
		t.Skip("builds lockgap and runs the go command")
	}
	tmp := t.TempDir()
	bin, mod, _, run := setUpModule(t, tmp, registryModule)
	check := func(wantFinding bool, name string, args ...string) {
		t.Helper()
		out, code := run(name, args...)
		if got := strings.Contains(out, registryFinding); got != wantFinding || (name == bin && (code == 3) != wantFinding) {
			t.Errorf("%s %v: exit %d, finding %v, want %v\n%s", filepath.Base(name), args, code, got, wantFinding, out)
		}
	}
	check(false, bin, "./...")
	check(false, bin, "-json", "./...")
	check(true, bin, "./registry")                     // the plugins were not analysed
	check(true, "go", "vet", "-vettool="+bin, "./...") // one package at a time
	check(true, bin, "-checker", "./...")              // likewise
	if out, code := run(bin, "-fix", "./..."); code != 0 {
		t.Fatalf("-fix: exit %d\n%s", code, out)
	}
	if data, _ := os.ReadFile(filepath.Join(mod, "registry", "registry.go")); string(data) != registryModule["registry/registry.go"] {
		t.Errorf("-fix changed a finding its callers silence:\n%s", data)
	}

	// A package that does not build: if it imports the registry, its calls
	// are unknown and the finding stays; if not, it changes nothing.
	write := func(name, body string) {
		t.Helper()
		p := filepath.Join(mod, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("broken/broken.go", "package broken\n\nvar X int = \"x\"\n")
	if out, code := run(bin, "./..."); code != 1 || strings.Contains(out, registryFinding) {
		t.Errorf("with a broken package that does not import the registry: exit %d\n%s", code, out)
	}
	write("broken/broken.go", "package broken\n\nimport \"example.com/reg/registry\"\n\nvar X int = registry.New(\"x\")\n")
	if out, code := run(bin, "./..."); code != 1 || !strings.Contains(out, registryFinding) {
		t.Errorf("with a broken package that imports the registry: exit %d\n%s", code, out)
	}
	if err := os.RemoveAll(filepath.Join(mod, "broken")); err != nil {
		t.Fatal(err)
	}

	// A caller at run time: the registration can race.
	write("plugins/late/late.go", `package late

import "example.com/reg/registry"

// Load registers drivers named in a configuration file.
func Load(names []string) {
	for _, n := range names {
		go registry.Register(n, nil)
	}
}
`)
	check(true, bin, "./...")
	// Reported, it is fixed like any other, and the tree still builds.
	if out, code := run(bin, "-fix", "./..."); code != 0 {
		t.Fatalf("-fix: exit %d\n%s", code, out)
	}
	if data, _ := os.ReadFile(filepath.Join(mod, "registry", "registry.go")); string(data) == registryModule["registry/registry.go"] {
		t.Errorf("-fix left a reported finding alone")
	}
	if out, code := run("go", "build", "./..."); code != 0 {
		t.Fatalf("tree does not build after -fix:\n%s", out)
	}
	check(false, bin, "./...")
}

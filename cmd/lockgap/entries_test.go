package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// registryModule is the initentries fixture (testdata/src/initentries)
// as a module of its own: a driver registry whose Register tests for a
// duplicate in one section and inserts in a second, a plugin package
// registering from its initialisation (an init function, a package
// variable), which runs one package at a time, so the gap cannot be
// raced; only a run over the whole module can see that. An app imports
// them; the fixture's late package, registering at run time, is added
// later in the test.
func registryModule(t *testing.T) (files map[string]string, late, finding string) {
	t.Helper()
	read := func(name string) string {
		data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "src", "initentries", name))
		if err != nil {
			t.Fatal(err)
		}
		return strings.ReplaceAll(string(data), `"initentries/`, `"example.com/reg/`)
	}
	registry := read("registry/registry.go")
	for i, line := range strings.Split(registry, "\n") {
		if col := strings.Index(line, "mu.Lock() // want"); col >= 0 {
			// Positioned on the Lock call's parenthesis.
			finding = fmt.Sprintf("registry.go:%d:%d: mu is locked again after the section that checked", i+1, col+len("mu.Lock")+1)
		}
	}
	files = map[string]string{
		"go.mod":               "module example.com/reg\n\ngo 1.26.0\n",
		"registry/registry.go": registry,
		"disk/disk.go":         read("disk/disk.go"),
		"cmd/app/main.go": `package main

import (
	"fmt"

	_ "example.com/reg/disk"
	"example.com/reg/registry"
)

func main() { fmt.Println(registry.New("disk")) }
`,
	}
	return files, read("late/late.go"), finding
}

// TestInitEntries: the driver drops a gap whose every caller in the
// module runs at package initialisation, and keeps it when it cannot see
// every caller, when one runs later, and under go vet.
func TestInitEntries(t *testing.T) {
	if testing.Short() {
		t.Skip("builds lockgap and runs the go command")
	}
	tmp := t.TempDir()
	files, late, registryFinding := registryModule(t)
	bin, mod, _, run := setUpModule(t, tmp, files)
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
	if data, _ := os.ReadFile(filepath.Join(mod, "registry", "registry.go")); string(data) != files["registry/registry.go"] {
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
	write("late/late.go", late)
	check(true, bin, "./...")
	// Reported, it is fixed like any other, and the tree still builds.
	if out, code := run(bin, "-fix", "./..."); code != 0 {
		t.Fatalf("-fix: exit %d\n%s", code, out)
	}
	if data, _ := os.ReadFile(filepath.Join(mod, "registry", "registry.go")); string(data) == files["registry/registry.go"] {
		t.Errorf("-fix left a reported finding alone")
	}
	if out, code := run("go", "build", "./..."); code != 0 {
		t.Fatalf("tree does not build after -fix:\n%s", out)
	}
	check(false, bin, "./...")
}

// TestFreshEntries: the driver drops a gap in an exported method whose
// every use in the module is a call on a parser the caller has just made
// (testdata/src/freshentries), and keeps it when it cannot see every
// package depending on the method's, when one package shares a parser,
// when one converts a parser to an interface, and under go vet.
func TestFreshEntries(t *testing.T) {
	if testing.Short() {
		t.Skip("builds lockgap and runs the go command")
	}
	read := func(name string) string {
		data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "src", "freshentries", name))
		if err != nil {
			t.Fatal(err)
		}
		return strings.ReplaceAll(string(data), `"freshentries/`, `"example.com/fresh/`)
	}
	schemas := read("schemas/schemas.go")
	var finding string
	for i, line := range strings.Split(schemas, "\n") {
		if col := strings.Index(line, "p.mu.Lock() // want"); col >= 0 {
			finding = fmt.Sprintf("schemas.go:%d:%d: p.mu is locked again for writing after RUnlock", i+1, col+len("p.mu.Lock")+1)
		}
	}
	files := map[string]string{
		"go.mod":             "module example.com/fresh\n\ngo 1.26.0\n",
		"schemas/schemas.go": schemas,
		"gateway/gateway.go": read("gateway/gateway.go"),
		"cmd/app/main.go": `package main

import (
	"fmt"

	"example.com/fresh/gateway"
)

func main() { fmt.Println(gateway.Fields("user:id,name")) }
`,
	}
	tmp := t.TempDir()
	bin, mod, _, run := setUpModule(t, tmp, files)
	check := func(wantFinding bool, name string, args ...string) {
		t.Helper()
		out, code := run(name, args...)
		if got := strings.Contains(out, finding); got != wantFinding || (name == bin && (code == 3) != wantFinding) {
			t.Errorf("%s %v: exit %d, finding %v, want %v\n%s", filepath.Base(name), args, code, got, wantFinding, out)
		}
	}
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
	check(false, bin, "./...")
	check(true, bin, "./schemas", "./gateway")         // cmd/app, which depends on schemas through gateway, was not analysed
	check(true, "go", "vet", "-vettool="+bin, "./...") // one package at a time
	check(true, bin, "-checker", "./...")              // likewise

	// One parser for every caller: Parse can be raced through it.
	write("shared/shared.go", read("shared/shared.go"))
	check(true, bin, "./...")
	if err := os.RemoveAll(filepath.Join(mod, "shared")); err != nil {
		t.Fatal(err)
	}
	// A parser behind an interface: who calls Parse on it, and on which
	// parser, no one can tell.
	write("iface/iface.go", `package iface

import "example.com/fresh/schemas"

type Parser interface {
	Parse(desc string) (*schemas.Schema, error)
}

func New() Parser { return schemas.NewParser() }
`)
	check(true, bin, "./...")
	if err := os.RemoveAll(filepath.Join(mod, "iface")); err != nil {
		t.Fatal(err)
	}
	// A method value: called later, on whatever goroutine.
	write("later/later.go", `package later

import "example.com/fresh/schemas"

func Parser() func(string) (*schemas.Schema, error) { return schemas.NewParser().Parse }
`)
	check(true, bin, "./...")
	if err := os.RemoveAll(filepath.Join(mod, "later")); err != nil {
		t.Fatal(err)
	}
	check(false, bin, "./...")
}

// TestLockedEntries: the driver drops a gap in an exported method whose
// every call in the module is made with a lock held (testdata/src/
// lockedentries: billing reserves under a per-account stripe), and keeps
// it when it cannot see every package depending on the method's, when
// one package calls it with no lock held, when one reaches it through an
// interface or a method value, and under go vet.
func TestLockedEntries(t *testing.T) {
	if testing.Short() {
		t.Skip("builds lockgap and runs the go command")
	}
	read := func(name string) string {
		data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "src", "lockedentries", name))
		if err != nil {
			t.Fatal(err)
		}
		return strings.ReplaceAll(string(data), `"lockedentries/`, `"example.com/locked/`)
	}
	quota := read("quota/quota.go")
	var finding string
	for i, line := range strings.Split(quota, "\n") {
		if col := strings.Index(line, "l.mu.Lock() // want"); col >= 0 {
			finding = fmt.Sprintf("quota.go:%d:%d: l.mu is locked again", i+1, col+len("l.mu.Lock")+1)
		}
	}
	files := map[string]string{
		"go.mod":             "module example.com/locked\n\ngo 1.26.0\n",
		"quota/quota.go":     quota,
		"billing/billing.go": read("billing/billing.go"),
		"cmd/app/main.go": `package main

import (
	"fmt"

	"example.com/locked/billing"
	"example.com/locked/quota"
)

func main() {
	l := quota.NewLedger()
	l.Credit("ann", 10)
	b := billing.New(l)
	fmt.Println(b.Charge("ann", 4), b.ChargeBundle("ann", 3, 3))
}
`,
	}
	tmp := t.TempDir()
	bin, mod, _, run := setUpModule(t, tmp, files)
	check := func(wantFinding bool, name string, args ...string) {
		t.Helper()
		out, code := run(name, args...)
		if got := strings.Contains(out, finding); got != wantFinding || (name == bin && (code == 3) != wantFinding) {
			t.Errorf("%s %v: exit %d, finding %v, want %v\n%s", filepath.Base(name), args, code, got, wantFinding, out)
		}
	}
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
	remove := func(dir string) {
		t.Helper()
		if err := os.RemoveAll(filepath.Join(mod, dir)); err != nil {
			t.Fatal(err)
		}
	}
	check(false, bin, "./...")
	check(true, bin, "./quota", "./billing")           // cmd/app, which depends on quota, was not analysed
	check(true, "go", "vet", "-vettool="+bin, "./...") // one package at a time
	check(true, bin, "-checker", "./...")              // likewise

	// A retry with no lock held: two of them can overdraw the account.
	write("refunds/refunds.go", read("refunds/refunds.go"))
	check(true, bin, "./...")
	remove("refunds")
	// Behind an interface, anyone may reserve, under any lock or none.
	write("iface/iface.go", `package iface

import "example.com/locked/quota"

type Reserver interface{ Reserve(account string, n int) bool }

func New() Reserver { return quota.NewLedger() }
`)
	check(true, bin, "./...")
	remove("iface")
	// A method value runs wherever it is called.
	write("later/later.go", `package later

import "example.com/locked/quota"

func Reserve(l *quota.Ledger) func(string, int) bool { return l.Reserve }
`)
	check(true, bin, "./...")
	remove("later")
	check(false, bin, "./...")
}

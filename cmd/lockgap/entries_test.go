package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode"
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
	read := func(name string) string { return readFixture(t, "initentries", "example.com/reg", name) }
	registry := read("registry/registry.go")
	finding = findingAt(registry, "registry.go", "mu.Lock", "mu is locked again after the section that checked")
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
	files, late, registryFinding := registryModule(t)
	m := newEntryModule(t, files, registryFinding)
	bin, mod, run, check, write := m.bin, m.mod, m.run, m.check, m.write
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
	// are unknown and the finding stays; if not, it changes nothing. (The
	// in-process run leaves such a tree to go vet.)
	write("broken/broken.go", "package broken\n\nvar X int = \"x\"\n")
	if out, code := run(bin, "-inprocess=false", "./..."); code != 1 || strings.Contains(out, registryFinding) {
		t.Errorf("with a broken package that does not import the registry: exit %d\n%s", code, out)
	}
	write("broken/broken.go", "package broken\n\nimport \"example.com/reg/registry\"\n\nvar X int = registry.New(\"x\")\n")
	if out, code := run(bin, "-inprocess=false", "./..."); code != 1 || !strings.Contains(out, registryFinding) {
		t.Errorf("with a broken package that imports the registry: exit %d\n%s", code, out)
	}
	m.remove("broken")

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
	read := func(name string) string { return readFixture(t, "freshentries", "example.com/fresh", name) }
	schemas := read("schemas/schemas.go")
	finding := findingAt(schemas, "schemas.go", "p.mu.Lock", "p.mu is locked again for writing after RUnlock")
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
	m := newEntryModule(t, files, finding)
	bin, check, write, remove := m.bin, m.check, m.write, m.remove
	check(false, bin, "./...")
	check(true, bin, "./schemas", "./gateway")         // cmd/app, which depends on schemas through gateway, was not analysed
	check(true, "go", "vet", "-vettool="+bin, "./...") // one package at a time
	check(true, bin, "-checker", "./...")              // likewise

	// One parser for every caller: Parse can be raced through it.
	write("shared/shared.go", read("shared/shared.go"))
	check(true, bin, "./...")
	remove("shared")
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
	remove("iface")
	// A method value: called later, on whatever goroutine.
	write("later/later.go", `package later

import "example.com/fresh/schemas"

func Parser() func(string) (*schemas.Schema, error) { return schemas.NewParser().Parse }
`)
	check(true, bin, "./...")
	remove("later")
	// A parser reused in a loop that hands it to a goroutine after each
	// Parse: the next Parse races the goroutines started before it.
	write("warm/warm.go", `package warm

import "example.com/fresh/schemas"

func Prefetch(descs []string, done chan<- *schemas.Parser) {
	p := schemas.NewParser()
	for _, d := range descs {
		if _, err := p.Parse(d); err != nil {
			return
		}
		go func() { done <- p }()
	}
}
`)
	check(true, bin, "./...")
	remove("warm")
	check(false, bin, "./...")
}

// TestFreshEntriesThroughHelpers: the gap is in an unexported helper that
// exported methods call on their receiver (testdata/src/freshentries/
// reach); each request makes its Reachability with a constructor method
// and calls two of them in turn. The driver drops the gap, and keeps it
// when one package hands a Reachability to a goroutine, and under go vet.
func TestFreshEntriesThroughHelpers(t *testing.T) {
	if testing.Short() {
		t.Skip("builds lockgap and runs the go command")
	}
	read := func(name string) string { return readFixture(t, "freshentries", "example.com/fresh", name) }
	reach := read("reach/reach.go")
	finding := findingAt(reach, "reach.go", "r.mu.Lock", "r.mu is locked again for writing after RUnlock")
	m := newEntryModule(t, map[string]string{
		"go.mod":         "module example.com/fresh\n\ngo 1.26.0\n",
		"reach/reach.go": reach,
		"query/query.go": read("query/query.go"),
		"cmd/app/main.go": `package main

import (
	"fmt"

	"example.com/fresh/query"
	"example.com/fresh/reach"
)

func main() {
	def := &reach.Definition{Name: "doc", Relations: map[string][]string{"view": {"edit"}}}
	fmt.Println(query.Lookup(def, "view", "edit"))
}
`,
	}, finding)
	m.check(false, m.bin, "./...")
	m.check(true, "go", "vet", "-vettool="+m.bin, "./...")
	// Two lookups on one Reachability at once: the memo's fill races.
	m.write("warm/warm.go", `package warm

import "example.com/fresh/reach"

func Warm(def *reach.Definition, rels []string) {
	r := def.Reachability()
	for _, rel := range rels {
		go r.Entrypoints(rel)
	}
}
`)
	m.check(true, m.bin, "./...")
	m.remove("warm")
	m.check(false, m.bin, "./...")
}

// TestLockedEntries: the driver drops a gap in an exported method whose
// every call in the module is made with a lock held (testdata/src/
// lockedentries: billing reserves under a per-account stripe), and keeps
// it when it cannot see every package depending on the method's, when
// one package calls it with no lock held (or one it released first), when
// one reaches it through an interface or a method value, and under go vet.
func TestLockedEntries(t *testing.T) {
	if testing.Short() {
		t.Skip("builds lockgap and runs the go command")
	}
	read := func(name string) string { return readFixture(t, "lockedentries", "example.com/locked", name) }
	quota := read("quota/quota.go")
	finding := findingAt(quota, "quota.go", "l.mu.Lock", "l.mu is locked again")
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
	l := quota.Open(map[string]int{"ann": 10})
	b := billing.New(l)
	fmt.Println(b.Charge("ann", 4), b.ChargeBundle("ann", 3, 3))
}
`,
	}
	m := newEntryModule(t, files, finding)
	bin, check, write, remove := m.bin, m.check, m.write, m.remove
	check(false, bin, "./...")
	check(true, bin, "./quota", "./billing")           // cmd/app, which depends on quota, was not analysed
	check(true, "go", "vet", "-vettool="+bin, "./...") // one package at a time
	check(true, bin, "-checker", "./...")              // likewise

	// A retry with no lock held: two of them can overdraw the account.
	write("refunds/refunds.go", read("refunds/refunds.go"))
	check(true, bin, "./...")
	remove("refunds")
	// A lock taken and released before the call does not count.
	write("settle/settle.go", read("settle/settle.go"))
	check(true, bin, "./...")
	remove("settle")
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
	// Credit writes the balances with no lock but l.mu: a use of it
	// with no lock held is a way into the gap too.
	write("topup/topup.go", `package topup

import "example.com/locked/quota"

func TopUp(l *quota.Ledger, account string) { l.Credit(account, -5) }
`)
	check(true, bin, "./...")
	remove("topup")
	check(false, bin, "./...")
}

// TestLockedOrFreshEntries: a gap whose calls in the module either hold
// the caller's lock or fill a collection the caller has just made
// (testdata/src/lockedentries/provisioners, admin). Neither condition
// holds alone, since Update is called on the shared collection and Store
// on new ones unlocked; the driver drops the gap because each use is
// good for the locked condition, and keeps it when one package stores
// into the shared collection with no lock held, and under go vet.
func TestLockedOrFreshEntries(t *testing.T) {
	if testing.Short() {
		t.Skip("builds lockgap and runs the go command")
	}
	read := func(name string) string { return readFixture(t, "lockedentries", "example.com/locked", name) }
	src := read("provisioners/provisioners.go")
	finding := findingAt(src, "provisioners.go", "c.mu.Lock", "c.mu is locked again after the section that checked")
	m := newEntryModule(t, map[string]string{
		"go.mod":                       "module example.com/locked\n\ngo 1.26.0\n",
		"provisioners/provisioners.go": src,
		"admin/admin.go":               read("admin/admin.go"),
		"cmd/app/main.go": `package main

import (
	"fmt"

	"example.com/locked/admin"
	"example.com/locked/provisioners"
)

func main() {
	var a admin.Authority
	fmt.Println(a.Reload([]*provisioners.Provisioner{{ID: "1", Name: "acme"}}))
	fmt.Println(a.UpdateProvisioner(&provisioners.Provisioner{ID: "1", Name: "jwk"}))
}
`,
	}, finding)
	m.check(false, m.bin, "./...")
	m.check(true, "go", "vet", "-vettool="+m.bin, "./...")
	// A store into the served collection with no lock: it can land in
	// Update's gap.
	m.write("bulk/bulk.go", `package bulk

import "example.com/locked/provisioners"

func Import(c *provisioners.Collection, list []*provisioners.Provisioner) {
	for _, p := range list {
		c.Store(p)
	}
}
`)
	m.check(true, m.bin, "./...")
	m.remove("bulk")
	m.check(false, m.bin, "./...")
}

// TestLockedEntriesThroughInterface: the calls that keep a gap's locked
// entry safe may go through an interface (testdata/src/lockedentries:
// the box office books seats through its Booker interface, under its
// lock). The driver counts every interface call in the module that may
// land in the entry, since no interface outside the module can name
// seats.Seat; it keeps the finding when one such call holds no lock, or
// when a method value of the interface runs wherever it is handed.
func TestLockedEntriesThroughInterface(t *testing.T) {
	if testing.Short() {
		t.Skip("builds lockgap and runs the go command")
	}
	read := func(name string) string { return readFixture(t, "lockedentries", "example.com/box", name) }
	chart := read("seats/seats.go")
	finding := findingAt(chart, "seats.go", "c.mu.Lock", "c.mu is locked again")
	files := map[string]string{
		"go.mod":                 "module example.com/box\n\ngo 1.26.0\n",
		"seats/seats.go":         chart,
		"boxoffice/boxoffice.go": read("boxoffice/boxoffice.go"),
		"cmd/box/main.go": `package main

import (
	"fmt"

	"example.com/box/boxoffice"
	"example.com/box/seats"
)

func main() {
	fmt.Println(boxoffice.New().Sell("matinee", seats.Seat{Row: 'A', Num: 1}, "ann"))
}
`,
	}
	m := newEntryModule(t, files, finding)
	bin, check, write, remove := m.bin, m.check, m.write, m.remove
	check(false, bin, "./...")
	check(true, bin, "./seats")                        // the box office was not analysed
	check(true, "go", "vet", "-vettool="+bin, "./...") // one package at a time
	// A kiosk booking through the same interface with no lock held.
	write("kiosk/kiosk.go", `package kiosk

import (
	"example.com/box/boxoffice"
	"example.com/box/seats"
)

func Grab(b boxoffice.Booker, s seats.Seat) bool { return b.Book(s, "kiosk") }
`)
	check(true, bin, "./...")
	remove("kiosk")
	// A method value of the interface runs wherever it is called.
	write("later/later.go", `package later

import (
	"example.com/box/boxoffice"
	"example.com/box/seats"
)

func Booking(b boxoffice.Booker) func(seats.Seat, string) bool { return b.Book }
`)
	check(true, bin, "./...")
	remove("later")
	check(false, bin, "./...")
}

// TestLockedEntriesThroughPrivateInterface: the dock calls its bays
// through an interface of its own, unexported, under its lock. Take's
// signature names no type of the module, so converting Bays to an
// interface any package could declare counts against the condition; to
// the dock's own interface it does not, and the calls made through it
// are counted where they are made.
func TestLockedEntriesThroughPrivateInterface(t *testing.T) {
	if testing.Short() {
		t.Skip("builds lockgap and runs the go command")
	}
	read := func(name string) string { return readFixture(t, "lockedentries", "example.com/dock", name) }
	src := read("bays/bays.go")
	finding := findingAt(src, "bays.go", "b.mu.Lock", "b.mu is locked again")
	m := newEntryModule(t, map[string]string{
		"go.mod":       "module example.com/dock\n\ngo 1.26.0\n",
		"bays/bays.go": src,
		"dock/dock.go": read("dock/dock.go"),
		"cmd/dock/main.go": `package main

import (
	"fmt"

	"example.com/dock/dock"
)

func main() {
	d := dock.New()
	fmt.Println(d.Assign("truck-1", 4))
}
`,
	}, finding)
	m.check(false, m.bin, "./...")
	m.check(true, "go", "vet", "-vettool="+m.bin, "./...")
	// An exported interface of the same method set: any package,
	// in the module or not, may call Take through one.
	m.write("yard/yard.go", `package yard

import "example.com/dock/bays"

type Taker interface{ Take(n int, truck string) bool }

var Spare Taker = bays.New()
`)
	m.check(true, m.bin, "./...")
	m.remove("yard")
	m.check(false, m.bin, "./...")
}

// TestLockedReentry: a reader that takes its read lock again hangs only
// if a writer locks in between. The segment index's Heads does, and is
// exported; the driver drops the finding when every call in the module
// of Heads and of the index's writer, Append, holds a lock (the
// journal's), and keeps it when one package appends with none.
func TestLockedReentry(t *testing.T) {
	if testing.Short() {
		t.Skip("builds lockgap and runs the go command")
	}
	index := `package index

import "sync"

type Index struct {
	mu   sync.RWMutex
	segs map[int]string
	last int
}

func New() *Index { return &Index{segs: map[int]string{}} }

func (x *Index) segment(n int) string {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return x.segs[n]
}

// Heads lists the segments; callers serialise it with Append.
func (x *Index) Heads() []string {
	x.mu.RLock()
	defer x.mu.RUnlock()
	var out []string
	for n := range x.segs {
		out = append(out, x.segment(n)) // want
	}
	return out
}

func (x *Index) Append(s string) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.last++
	x.segs[x.last] = s
}
`
	line := strings.Count(index[:strings.Index(index, "x.segment(n)) // want")], "\n") + 1
	finding := fmt.Sprintf("index.go:%d:21: x.mu is held for reading here and x.segment takes its read lock again", line)
	files := map[string]string{
		"go.mod":         "module example.com/journal\n\ngo 1.26.0\n",
		"index/index.go": index,
		"journal/journal.go": `package journal

import (
	"sync"

	"example.com/journal/index"
)

type Journal struct {
	mu    sync.Mutex
	index *index.Index
}

func New() *Journal { return &Journal{index: index.New()} }

func (j *Journal) Write(s string) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.index.Append(s)
}

func (j *Journal) Heads() []string {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.index.Heads()
}
`,
		"cmd/journal/main.go": `package main

import (
	"fmt"

	"example.com/journal/journal"
)

func main() {
	j := journal.New()
	j.Write("a")
	fmt.Println(j.Heads())
}
`,
	}
	m := newEntryModule(t, files, finding)
	bin, check, write, remove := m.bin, m.check, m.write, m.remove
	check(false, bin, "./...")
	check(true, bin, "./index")                        // the journal was not analysed
	check(true, "go", "vet", "-vettool="+bin, "./...") // one package at a time
	// A compactor appending on its own goroutine, with no lock held.
	write("compact/compact.go", `package compact

import "example.com/journal/index"

func Start(x *index.Index) { go x.Append("compacted") }
`)
	check(true, bin, "./...")
	remove("compact")
	check(false, bin, "./...")
}

// readFixture returns testdata/src/<fixture>/<name> with the fixture's
// imports of its own packages moved into module mod.
func readFixture(t *testing.T, fixture, mod, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "src", fixture, name))
	if err != nil {
		t.Fatal(err)
	}
	return strings.ReplaceAll(string(data), `"`+fixture+`/`, `"`+mod+`/`)
}

// findingAt returns the finding lockgap prints for the lock call on the
// `// want` line of src, positioned where the call starts (lockCall may
// leave out the receiver's first names): "file:line:col: message".
func findingAt(src, file, lockCall, message string) string {
	for i, line := range strings.Split(src, "\n") {
		if col := strings.Index(line, lockCall+"() // want"); col >= 0 {
			for col > 0 && (line[col-1] == '.' || line[col-1] == '_' || unicode.IsLetter(rune(line[col-1])) || unicode.IsDigit(rune(line[col-1]))) {
				col--
			}
			return fmt.Sprintf("%s:%d:%d: %s", file, i+1, col+1, message)
		}
	}
	return ""
}

// entryModule is a module set up for a test of the driver's module-wide
// step, with lockgap built beside it and one finding to look for.
type entryModule struct {
	t                 *testing.T
	bin, mod, finding string
	run               func(name string, args ...string) (string, int)
}

func newEntryModule(t *testing.T, files map[string]string, finding string) *entryModule {
	t.Helper()
	if finding == "" {
		t.Fatal("the fixture has no finding to look for")
	}
	m := &entryModule{t: t, finding: finding}
	m.bin, m.mod, _, m.run = setUpModule(t, t.TempDir(), files)
	return m
}

// check runs a command in the module and compares whether it printed the
// finding (and, for lockgap, whether it exited 3) with want.
func (m *entryModule) check(want bool, name string, args ...string) {
	m.t.Helper()
	out, code := m.run(name, args...)
	if got := strings.Contains(out, m.finding); got != want || (name == m.bin && (code == 3) != want) {
		m.t.Errorf("%s %v: exit %d, finding %v, want %v\n%s", filepath.Base(name), args, code, got, want, out)
	}
	if name == m.bin && !slices.Contains(args, "-fix") && !slices.Contains(args, "-checker") {
		// Through go vet, the driver settles the callers the same way.
		args = append([]string{"-inprocess=false"}, args...)
		out, code := m.run(name, args...)
		if got := strings.Contains(out, m.finding); got != want || (code == 3) != want {
			m.t.Errorf("%s %v: exit %d, finding %v, want %v\n%s", filepath.Base(name), args, code, got, want, out)
		}
	}
}

func (m *entryModule) write(name, body string) {
	m.t.Helper()
	p := filepath.Join(m.mod, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		m.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		m.t.Fatal(err)
	}
}

func (m *entryModule) remove(dir string) {
	m.t.Helper()
	if err := os.RemoveAll(filepath.Join(m.mod, dir)); err != nil {
		m.t.Fatal(err)
	}
}

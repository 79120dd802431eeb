package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/format"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The module the integration tests run on: store's methods lock
// internally (and store has a gap of its own); admit uses them from
// another package, so its finding needs store's facts.
var twoPackages = map[string]string{
	"go.mod": "module example.com/two\n\ngo 1.26.0\n",
	"store/store.go": `package store

import "sync"

type Set struct {
	mu    sync.RWMutex
	items map[string]*int
}

func (s *Set) Len() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return len(s.items)
}

func (s *Set) Add(k string) {
	s.mu.Lock()
	s.items[k] = new(int)
	s.mu.Unlock()
}

func (s *Set) Get(k string) *int {
	s.mu.RLock()
	v := s.items[k]
	s.mu.RUnlock()
	if v != nil {
		return v
	}
	v = new(int)
	s.mu.Lock()
	s.items[k] = v
	s.mu.Unlock()
	return v
}
`,
	"admit/admit.go": `package admit

import "example.com/two/store"

func Admit(s *store.Set, k string, limit int) bool {
	if s.Len() >= limit {
		return false
	}
	s.Add(k)
	return true
}
`,
}

const (
	admitFinding = "admit.go:9:2: s.mu is locked again for writing by s.Add after RUnlock"
	storeFinding = "store.go:30:2: s.mu is locked again for writing after RUnlock"
)

// TestGoCommandIntegration builds lockgap and runs it, in one fresh build
// cache, the ways users do: under go vet (facts cross packages) and
// through its own driver, including the order that trips the go
// command's vet cache (a package analysed first only as a dependency).
func TestGoCommandIntegration(t *testing.T) {
	if testing.Short() {
		t.Skip("builds lockgap and runs the go command")
	}
	tmp := t.TempDir()
	bin, mod, env, run := setUpModule(t, tmp, twoPackages)
	expect := func(out string, code, wantCode int, want ...string) {
		t.Helper()
		if code != wantCode {
			t.Errorf("exit code %d, want %d\n%s", code, wantCode, out)
		}
		for _, w := range want {
			if !strings.Contains(out, w) {
				t.Errorf("output lacks %q:\n%s", w, out)
			}
		}
	}

	// The driver through go vet, dependency first: store is analysed
	// only for admit's sake, then on its own; its finding must not be
	// lost to the go command's cache. Then in-process, the default
	// (LOCKGAP_INPROCESS=require: it may not go through go vet), the
	// same.
	for _, via := range [][]string{{"-inprocess=false"}, nil} {
		out, code := run(bin, append(via, "./admit")...)
		expect(out, code, 3, admitFinding)
		if strings.Contains(out, storeFinding) {
			t.Errorf("%v: finding of a package not asked for:\n%s", via, out)
		}
		out, code = run(bin, append(via, "./store")...)
		expect(out, code, 3, storeFinding)
		out, code = run(bin, append(via, "./...")...)
		expect(out, code, 3, admitFinding, storeFinding)
	}
	viaVetJSON, _ := run(bin, "-inprocess=false", "-json", "./...")
	if inJSON, _ := run(bin, "-json", "./..."); inJSON != viaVetJSON {
		t.Errorf("-json differs in-process:\n%s\nfrom go vet:\n%s", inJSON, viaVetJSON)
	}
	// Where the in-process run cannot go (the package does not compile,
	// below), the driver goes through go vet: loose runs allow that.
	loose := func(args ...string) (string, int) {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Dir, cmd.Env = mod, append(slices.Clone(env), requireInProcess+"=")
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		if ee, ok := err.(*exec.ExitError); ok {
			return out.String(), ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return out.String(), 0
	}

	// go vet -vettool: facts flow from store to admit.
	out, code := run("go", "vet", "-vettool="+bin, "./...")
	expect(out, code, 1, admitFinding, storeFinding)

	// -json, and a clean package.
	out, code = run(bin, "-json", "./admit")
	expect(out, code, 3, `"example.com/two/admit"`, `"rlockgap"`)

	// -sarif: the same results through go vet and through the in-process
	// checker; -sarif=FILE keeps the text report; help text as `help` prints it.
	sarif := func(args ...string) *sarifLog {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Dir, cmd.Env = mod, env
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 3 {
			t.Fatalf("%v: %v, want exit 3\n%s", args, err, stderr.String())
		}
		var log sarifLog
		if err := json.Unmarshal(stdout.Bytes(), &log); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, stdout.String())
		}
		return &log
	}
	viaVet := sarif("-inprocess=false", "-sarif", "./...")
	want, _ := json.Marshal(viaVet.Runs[0].Results)
	for _, via := range [][]string{nil, {"-checker"}} {
		got, _ := json.Marshal(sarif(append(via, "-sarif", "./...")...).Runs[0].Results)
		if !bytes.Equal(got, want) {
			t.Errorf("%v -sarif results differ:\n%s\nfrom go vet:\n%s", via, got, want)
		}
	}
	var locs []string
	for _, r := range viaVet.Runs[0].Results {
		l := r.Locations[0].PhysicalLocation
		// The region covers the call, s.Add(n) or s.mu.Lock().
		locs = append(locs, fmt.Sprintf("%s %s %s:%d:%d-%d:%d", r.RuleID, l.ArtifactLocation.URIBaseID, l.ArtifactLocation.URI,
			l.Region.StartLine, l.Region.StartColumn, l.Region.EndLine, l.Region.EndColumn))
	}
	if want := []string{"rlockgap %SRCROOT% admit/admit.go:9:2-9:10", "rlockgap %SRCROOT% store/store.go:30:2-30:13"}; !slices.Equal(locs, want) {
		t.Errorf("SARIF results %q, want %q", locs, want)
	}
	for _, r := range viaVet.Runs[0].Tool.Driver.Rules {
		out, code := run(bin, "help", r.ID)
		if code != 0 || out != r.Help.Text+"\n" {
			t.Errorf("rule %s: help.text is not what `lockgap help %s` prints:\n%s", r.ID, r.ID, out)
		}
	}
	out, code = run(bin, "-sarif="+filepath.Join(tmp, "out.sarif"), "./...")
	expect(out, code, 3, admitFinding, storeFinding)
	if data, err := os.ReadFile(filepath.Join(tmp, "out.sarif")); err != nil || !bytes.Contains(data, []byte(`"uri": "store/store.go"`)) {
		t.Errorf("-sarif=FILE: %v\n%s", err, data)
	}
	out, code = run(bin, "-sarif", "-json", "./...")
	expect(out, code, 1, "-sarif and -json")

	// -fix applies the lazy-initialisation re-check; the tree still builds
	// and the finding is gone.
	_, code = run(bin, "-fix", "./store")
	if code != 0 {
		t.Errorf("-fix exit code %d", code)
	}
	if out, code := run("go", "build", "./..."); code != 0 {
		t.Fatalf("tree does not build after -fix:\n%s", out)
	}
	out, code = run(bin, "./store")
	if code != 0 || strings.Contains(out, storeFinding) {
		t.Errorf("after -fix: exit %d\n%s", code, out)
	}
	// The in-process run kept its earlier tree for ./store; the file
	// changed, so it is not replayed.
	if trees, _ := filepath.Glob(filepath.Join(tmp, "cache", "lockgap", "inprocess", "*.json")); len(trees) == 0 {
		t.Errorf("-inprocess kept no tree in its cache")
	}
	out, code = run(bin, "-inprocess=false", "./store")
	if code != 0 || strings.Contains(out, storeFinding) {
		t.Errorf("-inprocess=false after -fix: exit %d\n%s", code, out)
	}

	// A test file that does not compile: go vet analyses admit with its
	// tests, so admit fails (exit 1); with -test=false, admit is analysed
	// without them, and its finding is back.
	badTest := filepath.Join(mod, "admit", "admit_test.go")
	if err := os.WriteFile(badTest, []byte("package admit\n\nvar _ = generatedOnly\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// In-process (required: run), the rest is analysed and the error
	// said, as go vet says it.
	for _, runs := range []func(...string) (string, int){loose, func(args ...string) (string, int) { return run(bin, args...) }} {
		out, code = runs("./...")
		expect(out, code, 1, "generatedOnly")
		out, code = runs("-test=false", "./...")
		expect(out, code, 3, admitFinding)
		if strings.Contains(out, "generatedOnly") {
			t.Errorf("-test=false still fails on a test file:\n%s", out)
		}
	}
	// A relative pattern in GOROOT/src names standard packages, which
	// go through go vet (their test variants have no export data here).
	std := exec.Command(bin, "./container/list")
	std.Dir = filepath.Join(strings.TrimSpace(goEnv("GOROOT")), "src")
	if out, err := std.CombinedOutput(); err != nil {
		t.Errorf("lockgap ./container/list in GOROOT/src: %v\n%s", err, out)
	}
	// The same words; go vet's vet tool prefixes its type errors with
	// its name.
	viaVetOut, _ := loose("-inprocess=false", "./...")
	viaVetOut = strings.ReplaceAll(viaVetOut, "lockgap: ", "")
	if out, _ := run(bin, "./..."); out != viaVetOut {
		t.Errorf("in-process, with a test file that does not compile:\n%s\ngo vet:\n%s", out, viaVetOut)
	}
	// -fix likewise: store, its tests broken too, is fixed in-process,
	// admit (a finding with no fix) is left as it is.
	if err := os.WriteFile(filepath.Join(mod, "store", "store.go"), []byte(twoPackages["store/store.go"]), 0o644); err != nil {
		t.Fatal(err)
	}
	storeTest := filepath.Join(mod, "store", "store_test.go")
	if err := os.WriteFile(storeTest, []byte("package store\n\nvar _ = generatedOnly\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, code = run(bin, "-test=false", "-fix", "./...")
	if code != 0 {
		t.Errorf("-test=false -fix: exit %d\n%s", code, out)
	}
	out, code = run(bin, "-test=false", "./...")
	expect(out, code, 3, admitFinding)
	if strings.Contains(out, storeFinding) {
		t.Errorf("-test=false -fix left store unfixed:\n%s", out)
	}
	if err := os.Remove(badTest); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(storeTest); err != nil {
		t.Fatal(err)
	}

	// A package whose dependency cannot be had stops go vet before it
	// analyses anything; lockgap still reports on the packages that load,
	// and says what failed (exit 1).
	broken := filepath.Join(mod, "broken", "broken.go")
	if err := os.MkdirAll(filepath.Dir(broken), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(broken, []byte("package broken\n\nimport \"example.com/missing/pkg\"\n\nvar X = pkg.Y\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, code = run(bin, "./...")
	expect(out, code, 1, admitFinding, "example.com/missing/pkg")
	if strings.Contains(out, "# ") {
		t.Errorf("package headers in the errors:\n%s", out)
	}

	// -fix, likewise, fixes the packages that load and says what failed.
	if err := os.WriteFile(filepath.Join(mod, "store", "store.go"), []byte(twoPackages["store/store.go"]), 0o644); err != nil {
		t.Fatal(err)
	}
	out, code = run(bin, "-fix", "./...")
	expect(out, code, 1, "example.com/missing/pkg")
	out, code = run(bin, "./store")
	if code != 0 || strings.Contains(out, storeFinding) {
		t.Errorf("-fix with a package that cannot be loaded left store unfixed: exit %d\n%s", code, out)
	}
}

// TestInProcessCgo: a package using cgo is type-checked from the files
// cgo produces, in-process, and keeps its finding.
func TestInProcessCgo(t *testing.T) {
	if testing.Short() {
		t.Skip("builds lockgap and runs the go command")
	}
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("no C compiler")
	}
	files := map[string]string{
		"go.mod":         twoPackages["go.mod"],
		"store/store.go": twoPackages["store/store.go"],
		"store/native.go": `package store

// #include <stdlib.h>
import "C"

// Abs is C's.
func Abs(n int) int { return int(C.abs(C.int(n))) }
`,
	}
	bin, _, _, run := setUpModule(t, t.TempDir(), files)
	out, code := run(bin, "./...")
	if code != 3 || !strings.Contains(out, storeFinding) {
		t.Errorf("in-process on a cgo package: exit %d, want 3 and %q\n%s", code, storeFinding, out)
	}
}

// A registry whose lock and map are unexported package variables, and a
// caller in another package that reads an entry through one exported
// function and writes it through another. Under go vet the caller's
// package imports the registry from export data, which has neither
// variable, so the helpers' summaries name nothing and nothing is
// reported; the in-process run, which has the registry's source types,
// must not see more (-checker, loading from source, does).
var unexportedState = map[string]string{
	"go.mod": "module example.com/ug\n\ngo 1.26.0\n",
	"reg/reg.go": `package reg

import "sync"

var (
	mu    sync.Mutex
	names = map[string]string{}
)

// Lookup returns k's entry.
func Lookup(k string) string {
	mu.Lock()
	defer mu.Unlock()
	return names[k]
}

// Put stores v under k.
func Put(k, v string) {
	mu.Lock()
	names[k] = v
	mu.Unlock()
}
`,
	"app/app.go": `package app

import "example.com/ug/reg"

// Rename appends a mark to k's entry.
func Rename(k string) {
	v := reg.Lookup(k)
	reg.Put(k, v+"!")
}
`,
}

func TestInProcessSeesWhatGoVetSees(t *testing.T) {
	if testing.Short() {
		t.Skip("builds lockgap and runs the go command")
	}
	bin, _, _, run := setUpModule(t, t.TempDir(), unexportedState)
	const finding = "reg.mu is locked again by reg.Put"
	for _, via := range [][]string{nil, {"-inprocess=false"}} {
		if out, code := run(bin, append(via, "./...")...); code != 0 {
			t.Errorf("%v: exit %d, want 0\n%s", via, code, out)
		}
	}
	if out, code := run(bin, "-checker", "./..."); code != 3 || !strings.Contains(out, finding) {
		t.Errorf("-checker: exit %d, want 3 and %q (the shape is reachable from source)\n%s", code, finding, out)
	}
}

// ringsModule hands out a lock through an accessor in one package and
// takes it in another: the double-checked build is silent, the unchecked
// one reported, in-process and through go vet alike (the accessor
// crosses as a LockAccessor fact).
var ringsModule = map[string]string{
	"go.mod": "module example.com/rings\n\ngo 1.26.0\n",
	"rings/rings.go": `package rings

import "sync"

type Ring struct{ ID int }

type Rings struct {
	lock sync.Mutex
	m    sync.Map
}

func (r *Rings) Get(id int) *Ring {
	v, ok := r.m.Load(id)
	if !ok {
		return nil
	}
	return v.(*Ring)
}

func (r *Rings) Set(x *Ring) { r.m.Store(x.ID, x) }

func (r *Rings) Locker() sync.Locker { return &r.lock }
`,
	"balancer/balancer.go": `package balancer

import "example.com/rings/rings"

func Checked(r *rings.Rings, id int) *rings.Ring {
	if x := r.Get(id); x != nil {
		return x
	}
	r.Locker().Lock()
	defer r.Locker().Unlock()
	if x := r.Get(id); x != nil {
		return x
	}
	x := &rings.Ring{ID: id}
	r.Set(x)
	return x
}

func Unchecked(r *rings.Rings, id int) *rings.Ring {
	if x := r.Get(id); x != nil {
		return x
	}
	r.Locker().Lock()
	defer r.Locker().Unlock()
	x := &rings.Ring{ID: id}
	r.Set(x)
	return x
}
`,
}

func TestLockAccessorAcrossPackages(t *testing.T) {
	if testing.Short() {
		t.Skip("builds lockgap and runs the go command")
	}
	bin, _, _, run := setUpModule(t, t.TempDir(), ringsModule)
	for _, via := range [][]string{nil, {"-inprocess=false"}} {
		out, code := run(bin, append(via, "./...")...)
		if code != 3 || strings.Count(out, "stores what r.Get found missing") != 1 || !strings.Contains(out, "balancer.go:26:") {
			t.Errorf("%v: exit %d, want 3 and one finding, at balancer.go:26 (Unchecked)\n%s", via, code, out)
		}
	}
}

// setUpModule builds lockgap into tmp, writes the module's files, and
// returns a runner of commands in it with a fresh build cache.
func setUpModule(t *testing.T, tmp string, files map[string]string) (bin, mod string, env []string, run func(name string, args ...string) (string, int)) {
	t.Helper()
	bin = filepath.Join(tmp, "lockgap")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	mod = filepath.Join(tmp, "mod")
	for name, body := range files {
		p := filepath.Join(mod, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env = append(os.Environ(), "GOCACHE="+filepath.Join(tmp, "gocache"), "XDG_CACHE_HOME="+filepath.Join(tmp, "cache"),
		"GOFLAGS=", "GOPROXY=off", "GOWORK=off", requireInProcess+"=require")
	run = func(name string, args ...string) (string, int) {
		cmd := exec.Command(name, args...)
		cmd.Dir, cmd.Env = mod, env
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return out.String(), code
	}
	return bin, mod, env, run
}

// A module whose txn package takes no lock but calls back the function
// its Run is given (Later runs it on a goroutine); ledger's Debit runs
// its check and its debit inside Run under the ledger's apply lock, which
// every change holds: silent, as long as txn's CallsBack fact reaches
// ledger. LateLedger's goes through Later: reported.
var callsBackModule = map[string]string{
	"go.mod": "module example.com/cb\n\ngo 1.26.0\n",
	"txn/txn.go": `package txn

func Run(fn func() error) error { return fn() }

func Later(fn func() error) { go fn() }
`,
	"ledger/ledger.go": `package ledger

import (
	"sync"

	"example.com/cb/txn"
)

type Ledger struct {
	apply   sync.Mutex
	mu      sync.Mutex
	balance int
}

func (l *Ledger) Debit(n int) error {
	l.apply.Lock()
	defer l.apply.Unlock()
	return txn.Run(func() error {
		l.mu.Lock()
		ok := l.balance >= n
		l.mu.Unlock()
		if !ok {
			return nil
		}
		l.mu.Lock()
		l.balance -= n
		l.mu.Unlock()
		return nil
	})
}

func (l *Ledger) Credit(n int) {
	l.apply.Lock()
	defer l.apply.Unlock()
	l.mu.Lock()
	l.balance += n
	l.mu.Unlock()
}

type LateLedger struct {
	apply   sync.Mutex
	mu      sync.Mutex
	balance int
}

func (l *LateLedger) Debit(n int) {
	l.apply.Lock()
	defer l.apply.Unlock()
	txn.Later(func() error {
		l.mu.Lock()
		ok := l.balance >= n
		l.mu.Unlock()
		if !ok {
			return nil
		}
		l.mu.Lock()
		l.balance -= n
		l.mu.Unlock()
		return nil
	})
}

func (l *LateLedger) Credit(n int) {
	l.apply.Lock()
	defer l.apply.Unlock()
	l.mu.Lock()
	l.balance += n
	l.mu.Unlock()
}
`,
}

// TestCallsBackThroughGoVet checks that a CallsBack fact of a package
// that never touches sync reaches its dependents through the go command,
// under lockgap's driver (the dependency analysed only for its facts)
// and under go vet alike.
func TestCallsBackThroughGoVet(t *testing.T) {
	if testing.Short() {
		t.Skip("builds lockgap and runs the go command")
	}
	bin, _, _, run := setUpModule(t, t.TempDir(), callsBackModule)
	const late, covered = "ledger.go:56:3: l.mu is locked again after the section that checked", "ledger.go:25:3:"
	for _, args := range [][]string{{bin, "./ledger"}, {bin, "./..."}, {"go", "vet", "-vettool=" + bin, "./..."}} {
		out, _ := run(args[0], args[1:]...)
		if !strings.Contains(out, late) || strings.Contains(out, covered) {
			t.Errorf("%v: want only the finding at %q (not at %q):\n%s", args, late, covered, out)
		}
	}
}

// TestFixInProcess: -fix writes the fixes of an in-process report itself.
// Over the fixture packages with fixes (testdata/src/*fix), it must leave
// every file as go vet -fix (-inprocess=false) does, and the tree
// building; and the fixes must be gone from the next report.
func TestFixInProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("builds lockgap and runs the go command")
	}
	files := map[string]string{"go.mod": "module example.com/fixes\n\ngo 1.26.0\n"}
	goldens := map[string]string{} // what the analysistest run of each pass wants
	dirs, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "src", "*fix"))
	// mutexmapkeyfix imports the types of mutexmaptypes.
	for _, dir := range append(slices.Clone(dirs), filepath.Join("..", "..", "testdata", "src", "mutexmaptypes")) {
		names, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		for _, name := range names {
			data, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			src := strings.ReplaceAll(string(data), `"mutexmaptypes"`, `"example.com/fixes/mutexmaptypes"`)
			files[filepath.Join(filepath.Base(dir), filepath.Base(name))] = src
			if golden, err := os.ReadFile(name + ".golden"); err == nil {
				goldens[filepath.Join(filepath.Base(dir), filepath.Base(name))] = strings.ReplaceAll(string(golden), `"mutexmaptypes"`, `"example.com/fixes/mutexmaptypes"`)
			}
		}
	}
	if len(files) < 10 {
		t.Fatalf("found only %d fixture files", len(files))
	}
	tmp := t.TempDir()
	bin, mod, env, run := setUpModule(t, tmp, files)
	viaVet := filepath.Join(tmp, "viavet")
	if out, err := exec.Command("cp", "-a", mod, viaVet).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v\n%s", err, out)
	}
	// -fix -diff first: the same diffs as go vet prints (it prints them
	// package by package, in-process file by file), and exit 1 as go vet.
	diffs, code := run(bin, "-fix", "-diff", "./...")
	if code != 1 {
		t.Errorf("-fix -diff: exit %d, want 1", code)
	}
	diffCmd := exec.Command(bin, "-inprocess=false", "-fix", "-diff", "./...")
	diffCmd.Dir, diffCmd.Env = mod, env
	vetDiffs, _ := diffCmd.Output()
	// Where a hunk starts in the new file is left out: go vet's diff
	// miscounts it after a hunk that removes more lines than it adds
	// (TestUnifiedDiff checks lockgap's).
	newStart := regexp.MustCompile(`(?m)^(@@ -\S+ \+)\d+`)
	byFile := func(out string) []string {
		parts := strings.Split("\n"+newStart.ReplaceAllString(out, "${1}N"), "\n--- ")[1:]
		slices.Sort(parts)
		return parts
	}
	if got, want := byFile(diffs), byFile(string(vetDiffs)); !slices.Equal(got, want) || len(got) < len(dirs) {
		t.Errorf("-fix -diff printed\n%s\ngo vet -fix -diff printed\n%s", diffs, vetDiffs)
	}
	if out, code := run(bin, "-fix", "./..."); code != 0 {
		t.Fatalf("-fix: exit %d\n%s", code, out)
	}
	cmd := exec.Command(bin, "-inprocess=false", "-fix", "./...")
	cmd.Dir, cmd.Env = viaVet, env
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("-inprocess=false -fix: %v\n%s", err, out)
	}
	changed := 0
	for name, before := range files {
		got, err := os.ReadFile(filepath.Join(mod, name))
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(filepath.Join(viaVet, name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: -fix wrote\n%s\ngo vet -fix wrote\n%s", name, got, want)
		}
		// The driver builds its own SSA, which can differ from the
		// test harness's (result slots of functions with a defer): a fix
		// the fixtures see must reach users too.
		// (-fix formats what it writes; a .golden need not be.)
		if golden, ok := goldens[name]; ok {
			if formatted, err := format.Source([]byte(golden)); err == nil && !bytes.Equal(got, formatted) {
				t.Errorf("%s: -fix wrote\n%s\nits .golden, formatted, has\n%s", name, got, formatted)
			}
		}
		if string(got) != before {
			changed++
		}
	}
	if changed < len(dirs) {
		t.Errorf("-fix changed %d files, want at least one per fixture (%d)", changed, len(dirs))
	}
	if out, code := run("go", "build", "./..."); code != 0 {
		t.Fatalf("tree does not build after -fix:\n%s", out)
	}
	out, _ := run(bin, "-json", "./...")
	if strings.Contains(out, `"suggested_fixes"`) {
		t.Errorf("fixes left after -fix:\n%s", out)
	}
}

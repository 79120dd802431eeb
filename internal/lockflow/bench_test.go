package lockflow

import (
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
	"testing"

	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"
)

// largeFunction generates one function of about 5*n statements: n lock
// sections of each of the engine's shapes in turn (lazy fill, double
// check, lost update, check-then-act), in straight-line code and nested
// in branches, so taint, control dependence and gap search all get work.
func largeFunction(n int) string {
	var b strings.Builder
	b.WriteString(`package big

import "sync"

type entry struct{ n int }

type C struct {
	mu    sync.RWMutex
	m     map[int]*entry
	count int
	items []int
}

func (c *C) Big(keys []int) int {
	total := 0
`)
	for i := 0; i < n; i++ {
		switch i % 4 {
		case 0:
			fmt.Fprintf(&b, "\tc.mu.RLock()\n\tv%d := c.m[%d]\n\tc.mu.RUnlock()\n\tif v%d == nil {\n\t\tv%d = &entry{}\n\t\tc.mu.Lock()\n\t\tc.m[%d] = v%d\n\t\tc.mu.Unlock()\n\t}\n\ttotal += v%d.n\n", i, i, i, i, i, i, i)
		case 1:
			fmt.Fprintf(&b, "\tc.mu.RLock()\n\tv%d := c.m[%d]\n\tc.mu.RUnlock()\n\tif v%d == nil {\n\t\tc.mu.Lock()\n\t\tif c.m[%d] == nil {\n\t\t\tc.m[%d] = &entry{}\n\t\t}\n\t\tc.mu.Unlock()\n\t}\n", i, i, i, i, i)
		case 2:
			fmt.Fprintf(&b, "\tc.mu.RLock()\n\tn%d := c.count\n\tc.mu.RUnlock()\n\tc.mu.Lock()\n\tc.count = n%d + 1\n\tc.mu.Unlock()\n", i, i)
		case 3:
			fmt.Fprintf(&b, "\tif len(keys) > %d {\n\t\tc.mu.Lock()\n\t\tl%d := len(c.items)\n\t\tc.mu.Unlock()\n\t\tif l%d < 100 {\n\t\t\tc.mu.Lock()\n\t\t\tc.items = append(c.items, %d)\n\t\t\tc.mu.Unlock()\n\t\t}\n\t}\n", i, i, i, i)
		}
	}
	b.WriteString("\treturn total\n}\n")
	return b.String()
}

func buildBig(tb testing.TB, n int) *ssa.Package {
	fset := token.NewFileSet()
	return buildBigWith(tb, fset, importer.ForCompiler(fset, "source", nil), largeFunction(n))
}

// buildBigWith parses, type-checks and builds SSA for src, importing
// with imp (whose file set is fset).
func buildBigWith(tb testing.TB, fset *token.FileSet, imp types.Importer, src string) *ssa.Package {
	f, err := parser.ParseFile(fset, "big.go", src, 0)
	if err != nil {
		tb.Fatal(err)
	}
	conf := types.Config{Importer: imp}
	pkg, _, err := ssautil.BuildPackage(&conf, fset, types.NewPackage("big", ""), []*ast.File{f}, ssa.BuilderMode(0))
	if err != nil {
		tb.Fatal(err)
	}
	return pkg
}

func analyseBig(pkg *ssa.Package) *Result {
	res := &Result{Pkg: pkg}
	e := newEngine(nil, pkg, res)
	var funcs []*ssa.Function
	for fn := range ssautil.AllFunctions(pkg.Prog) {
		if fn.Pkg == pkg && fn.Synthetic == "" {
			funcs = append(funcs, fn)
		}
	}
	e.analyse(funcs)
	return res
}

// BenchmarkLargeFunction measures the engine alone (SSA is built once,
// outside the loop) on a generated function of about 20,000 statements
// with 4,000 lock sections. It must stay far below a second:
//
//	go test -run '^$' -bench LargeFunction ./internal/lockflow
func BenchmarkLargeFunction(b *testing.B) {
	pkg := buildBig(b, 4000)
	var gaps int
	for b.Loop() {
		gaps = len(analyseBig(pkg).Gaps)
	}
	b.ReportMetric(float64(gaps), "gaps")
}

// BenchmarkLargeFunctionFloor measures what every SSA analyzer pays
// before the engine runs on the same generated function: parsing,
// type-checking and building SSA (package sync imported once, outside the
// loop). The engine's time over this one, in the same run, is the figure
// to read: a ratio, steady from machine to machine, where ns/op is not.
func BenchmarkLargeFunctionFloor(b *testing.B) {
	src := largeFunction(4000)
	fset := token.NewFileSet()
	imp := importer.ForCompiler(fset, "source", nil)
	if _, err := imp.Import("sync"); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		buildBigWith(b, fset, imp, src)
	}
}

// TestLargeFunctionFindings checks, on a small instance, that the
// generated shapes are told apart (lazy fills and lost updates reported,
// double checks not, bounded appends reported) — so the benchmark
// measures the real work.
func TestLargeFunctionFindings(t *testing.T) {
	res := analyseBig(buildBig(t, 8))
	kinds := map[GapKind]int{}
	for _, g := range res.Gaps {
		kinds[g.Kind]++
	}
	if kinds[LazyInit] != 2 || kinds[LostUpdate] != 2 || kinds[Gated] != 2 || len(res.Gaps) != 6 {
		t.Errorf("gaps by kind = %v (total %d), want 2 lazy, 2 lost updates, 2 gated", kinds, len(res.Gaps))
	}
}

// joinsFunction generates a header loop: a switch of n cases over the
// fields, a few of which set flags, the rest counting, each going on to
// the next field, and after the loop tests of the flags above a store
// into a map: the shape of a protocol's header parsing (grpc's
// operateHeaders). The engine asks whether those tests are a lookup of
// the key stored (a claim inserted if absent).
// Each flag reaches its test through the loop's join, whose n edges
// mostly bring back the join itself; following every edge again costs n
// to the power of the walk's depth.
func joinsFunction(n int) string {
	var b strings.Builder
	b.WriteString(`package big

import "sync"

type D struct {
	mu    sync.Mutex
	m     map[string]int
	count int
}

func (d *D) Headers(key string, fields []string) {
	isA, isB, isC := false, false, false
	for _, f := range fields {
		switch f {
		case "a":
			isA = true
			continue
		case "b":
			isB = true
			continue
		case "c":
			isC = true
			continue
`)
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "\t\tcase \"f%d\":\n\t\t\td.count += %d\n\t\t\tcontinue\n", i, i)
	}
	b.WriteString(`		}
		d.count = 0
	}
	if isA {
		return
	}
	d.mu.Lock()
	if !isB && isC {
		d.m[key] = d.count
	}
	d.mu.Unlock()
}
`)
	return b.String()
}

// BenchmarkManyJoins measures the engine on joinsFunction(14): it must
// cost about what the large function's sections cost per statement, not
// grow with the number of paths through the joins.
//
//	go test -run '^$' -bench ManyJoins ./internal/lockflow
func BenchmarkManyJoins(b *testing.B) {
	fset := token.NewFileSet()
	pkg := buildBigWith(b, fset, importer.ForCompiler(fset, "source", nil), joinsFunction(14))
	for b.Loop() {
		analyseBig(pkg)
	}
}

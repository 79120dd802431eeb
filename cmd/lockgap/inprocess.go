package main

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"go/types"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"slices"
	"strings"
	"sync"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/gcexportdata"

	"github.com/lockgap/lockgap/internal/lockflow"
)

// The in-process report run (-inprocess). Under go vet every package is a
// process of its own: it type-checks its package from source and imports
// the export data of every dependency again, and on a module with a few
// hundred dependencies that repetition, not the analysis, is most of a
// cold run. This run asks the go command for the package graph once,
// imports the standard library from export data once, type-checks every
// other package from source once, in dependency order, and runs the
// passes on each with facts kept in memory: the same packages, facts and
// flags as the driver's go vet run (-lockgap.all -lockgap.skipstd), so
// the same JSON tree, which the driver settles and prints as before.
//
// A package that does not load (go list's error: a module the proxy
// will not serve) or does not type-check is not analysed, nor is any
// package that imports it; the run goes on with the rest and says what
// failed, under a "# package" header as go vet does, so one broken test
// file in a large module does not send the whole run through go vet.
// Test variants failing do not count with -test=false: their packages'
// findings without tests are reported instead. A pattern that may name
// the standard library, or a panic: errNotInProcess, and the driver runs
// go vet instead.

var errNotInProcess = errors.New("not analysable in-process")

// errPackagesFailed: some packages were not analysed (the report's
// stderr says why); the others were.
var errPackagesFailed = errors.New("some packages could not be analysed")

// listedPackage is what go list -json says of a package.
type listedPackage struct {
	ImportPath      string
	Dir             string
	Standard        bool
	DepOnly         bool
	ForTest         string
	GoFiles         []string
	CgoFiles        []string
	CompiledGoFiles []string
	OtherFiles      []string // assembly, C and the like, for pass.OtherFiles
	IgnoredGoFiles  []string
	Imports         []string
	ImportMap       map[string]string
	Module          *struct{ Path, Version, GoVersion string }
	Error           *listError
	DepsErrors      []*listError
	Incomplete      bool

	Export string // standard packages only (a second go list)

	done   chan struct{}
	failed bool // not analysed: it, or a dependency, failed (set before done closes)
	types  *types.Package
}

// listError is an error go list reports for a package.
type listError struct{ Pos, Err string }

// String says it as the go command does: "file:line:col: message".
func (e *listError) String() string {
	if e.Pos == "" || strings.HasPrefix(e.Err, e.Pos) {
		return e.Err
	}
	return e.Pos + ": " + e.Err
}

// goListGraph lists the packages patterns match, with their tests, and
// all their dependencies, dependencies first. The files to type-check are
// the Go files, or, where some package uses cgo, the files cgo produces
// (go list -compiled, which costs more: asked for only then).
func goListGraph(patterns []string) (pkgs []*listedPackage, err error) {
	fields := "-json=ImportPath,Dir,Standard,DepOnly,ForTest,GoFiles,CgoFiles,CompiledGoFiles,OtherFiles,IgnoredGoFiles,Imports,ImportMap,Module,Error,DepsErrors,Incomplete"
	pkgs, err = goList(append([]string{"-deps", "-test", fields}, patterns...))
	if err != nil {
		return nil, err
	}
	if slices.ContainsFunc(pkgs, func(p *listedPackage) bool { return !p.Standard && len(p.CgoFiles) > 0 }) {
		if pkgs, err = goList(append([]string{"-deps", "-test", "-compiled", fields}, patterns...)); err != nil {
			return nil, err
		}
	} else {
		for _, p := range pkgs {
			p.CompiledGoFiles = p.GoFiles
		}
	}
	return pkgs, nil
}

// listExports fills in the export data files of the standard packages
// (go list -export, which costs a quarter of a second even when all is
// built: asked for only when the cache has no tree).
func listExports(pkgs []*listedPackage) error {
	var std []string
	for _, p := range pkgs {
		if p.Standard && p.ImportPath != "unsafe" {
			std = append(std, p.ImportPath)
		}
	}
	if len(std) == 0 {
		return nil
	}
	exports, err := goList(append([]string{"-export", "-json=ImportPath,Export"}, std...))
	if err != nil {
		return err
	}
	byPath := map[string]string{}
	for _, e := range exports {
		byPath[e.ImportPath] = e.Export
	}
	for _, p := range pkgs {
		if p.Standard {
			p.Export = byPath[p.ImportPath]
		}
	}
	return nil
}

func goList(args []string) ([]*listedPackage, error) {
	// No profile-guided variants: a main package with a default.pgo
	// would have go list list its dependencies again for it, and PGO
	// changes code generation, not types.
	cmd := exec.Command("go", append([]string{"list", "-e", "-pgo=off"}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list: %v\n%s", err, stderr.Bytes())
	}
	var pkgs []*listedPackage
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		p := new(listedPackage)
		if err := dec.Decode(p); err == io.EOF {
			return pkgs, nil
		} else if err != nil {
			return nil, fmt.Errorf("go list: %v", err)
		}
		pkgs = append(pkgs, p)
	}
}

// fromSource reports whether the run type-checks p from source: not the
// standard library (read from export data; -lockgap.skipstd under go
// vet), and not a test binary's generated main package.
func fromSource(p *listedPackage) bool {
	return !p.Standard && p.ImportPath != "unsafe" && !strings.HasSuffix(p.ImportPath, ".test")
}

// vetAnalyses reports whether go vet, asked for the same patterns, would
// print p's findings: a package it type-checks from source, and one with
// a test variant only when some package of the graph imports it as it is.
func vetAnalyses(p *listedPackage, hasVariant, imported map[string]bool) bool {
	return fromSource(p) && (!hasVariant[p.ImportPath] || imported[p.ImportPath])
}

// inProcessRun is one in-process report run.
type inProcessRun struct {
	fset      *token.FileSet
	sizes     types.Sizes
	analyzers []*analysis.Analyzer // prerequisites first

	exportMu sync.Mutex
	imported map[string]*types.Package // standard packages read from export data

	factsMu sync.Mutex
	facts   map[factKey]analysis.Fact

	treeMu sync.Mutex
	graph  analysedGraph
	failed error // the first error that sends the run back to go vet
}

// analysedGraph is what an in-process run found, as its cache keeps it:
// the findings go vet would have printed, and what could not be analysed.
type analysedGraph struct {
	Tree jsonTree `json:"tree"`
	// Errors: the packages that failed to load or type-check, by ID,
	// with their errors, a "file:line:col: message" line each.
	Errors map[string][]string `json:"errors,omitempty"`
	// Skipped: the packages not analysed because a dependency failed.
	Skipped []string `json:"skipped,omitempty"`
	// Untested: the findings of packages analysed without their tests
	// only for their test variant's sake, by import path: what
	// -test=false reports for them when the test variant fails.
	Untested jsonTree `json:"untested,omitempty"`
}

// settle returns the findings to report, the errors to print (as go vet
// prints them, each package's under a "# package" header) and the
// packages asked for that failed. With tests false, a test variant's
// failure is none: its package is reported as analysed without tests.
func (g *analysedGraph) settle(roots map[string]bool, tests bool) (tree jsonTree, stderr []byte, failed map[string]bool) {
	tree, failed = jsonTree{}, map[string]bool{}
	maps.Copy(tree, g.Tree)
	var out bytes.Buffer
	fail := func(id string) bool {
		if !tests && strings.Contains(id, " [") {
			if untested := g.Untested[importPathOf(id)]; untested != nil {
				tree[importPathOf(id)] = untested
			}
			return false
		}
		if base := basePackage(id); roots[base] {
			failed[base] = true
		}
		return true
	}
	for _, id := range slices.Sorted(maps.Keys(g.Errors)) {
		if fail(id) {
			fmt.Fprintf(&out, "# %s\n%s\n", id, strings.Join(g.Errors[id], "\n"))
		}
	}
	for _, id := range g.Skipped {
		fail(id)
	}
	return tree, out.Bytes(), failed
}

// factKey: a fact of type t about a types.Object, or about a package
// (a *types.Package).
type factKey struct {
	subject any
	t       reflect.Type
}

// inProcessResult is what an in-process run found: the JSON tree the
// driver's go vet run would have printed, the packages that failed, and
// the packages asked for (with their modules).
type inProcessResult struct {
	graph   analysedGraph
	roots   map[string]bool
	modules map[string]string
	// fixable: the files -fix may edit from the tree (nil when the
	// packages asked for use cgo; see applyfix.go).
	fixable map[string]bool
}

// runInProcess analyses patterns in this process.
func runInProcess(o *driverOptions) (*inProcessResult, error) {
	if mayNameStd(o.patterns) {
		return nil, errNotInProcess
	}
	if name := os.Getenv("LOCKGAP_CPUPROFILE"); name != "" {
		// For lockgap's developers: where an in-process run's time goes.
		if f, err := os.Create(name); err == nil && pprof.StartCPUProfile(f) == nil {
			defer func() {
				pprof.StopCPUProfile()
				f.Close()
			}()
		}
	}
	toolchain := make(chan string, 1)
	go func() { toolchain <- goEnv("GOARCH", "GOOS", "GOROOT", "GOVERSION") }()
	pkgs, err := goListGraph(o.patterns)
	if err != nil {
		return nil, errors.Join(errNotInProcess, err)
	}
	// A relative pattern run in GOROOT/src (./net/http) names standard
	// packages too: their test variants have no export data to read.
	if slices.ContainsFunc(pkgs, func(p *listedPackage) bool { return !p.DepOnly && p.Standard }) {
		return nil, errNotInProcess
	}
	res := &inProcessResult{roots: map[string]bool{}, modules: map[string]string{}}
	for _, p := range pkgs {
		if !p.DepOnly && p.ForTest == "" && fromSource(p) {
			res.roots[p.ImportPath] = true
			if p.Module != nil {
				res.modules[p.ImportPath] = p.Module.Path
			}
		}
	}
	hasVariant, imported := map[string]bool{}, map[string]bool{}
	byPath := map[string]*listedPackage{}
	loadErrors := analysedGraph{Errors: map[string][]string{}}
	for _, p := range pkgs {
		switch {
		case p.Error != nil:
			loadErrors.Errors[p.ImportPath] = []string{p.Error.String()}
		case len(p.DepsErrors) > 0:
			loadErrors.Skipped = append(loadErrors.Skipped, p.ImportPath)
		}
		byPath[p.ImportPath] = p
		if p.ForTest != "" && p.ForTest == importPathOf(p.ImportPath) {
			hasVariant[p.ForTest] = true
		}
		for _, imp := range p.Imports {
			imported[imp] = true
		}
	}
	if files, ok := fixableFiles(pkgs); ok {
		res.fixable = files
	}
	env := strings.Split(strings.TrimSpace(<-toolchain), "\n")
	if len(env) != 4 {
		return nil, errNotInProcess
	}
	goarch := env[0]
	key, keyErr := resultKey(o, strings.Join(env, " "), pkgs)
	// A package that did not load may load on the next run (a module the
	// proxy serves again) with no file changed: such runs are not kept.
	keep := keyErr == nil && len(loadErrors.Errors) == 0 && len(loadErrors.Skipped) == 0
	if keep {
		if graph, ok := cachedGraph(key); ok {
			res.graph = graph
			return res, nil
		}
	}
	if err := listExports(pkgs); err != nil {
		return nil, errors.Join(errNotInProcess, err)
	}
	r := &inProcessRun{
		fset:     token.NewFileSet(),
		imported: map[string]*types.Package{},
		facts:    map[factKey]analysis.Fact{},
		graph:    loadErrors,
	}
	r.graph.Tree, r.graph.Untested = jsonTree{}, jsonTree{}
	if r.sizes = types.SizesFor("gc", goarch); r.sizes == nil {
		return nil, errNotInProcess
	}
	if r.analyzers, err = selectAnalyzers(o.passFlags); err != nil {
		return nil, err
	}
	lockflow.ModuleContext, lockflow.DependenciesFromSource = true, true
	slots := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for _, p := range pkgs {
		p.done = make(chan struct{})
		if !fromSource(p) {
			close(p.done)
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer close(p.done)
			p.failed = p.Error != nil || len(p.DepsErrors) > 0
			for _, imp := range p.Imports {
				if d := byPath[imp]; d != nil {
					<-d.done
					if d.failed && !p.failed {
						p.failed = true
						r.treeMu.Lock()
						r.graph.Skipped = append(r.graph.Skipped, p.ImportPath)
						r.treeMu.Unlock()
					}
				}
			}
			if p.failed {
				return
			}
			slots <- struct{}{}
			defer func() { <-slots }()
			r.treeMu.Lock()
			failed := r.failed != nil
			r.treeMu.Unlock()
			if failed {
				return // the run goes through go vet
			}
			err := r.analysePackage(p, byPath, vetAnalyses(p, hasVariant, imported))
			var broken packageErrors
			if errors.As(err, &broken) {
				p.failed = true
				r.treeMu.Lock()
				r.graph.Errors[p.ImportPath] = broken
				r.treeMu.Unlock()
			} else if err != nil {
				r.treeMu.Lock()
				r.failed = cmp.Or(r.failed, err)
				r.treeMu.Unlock()
			}
		}()
	}
	wg.Wait()
	if r.failed != nil {
		return nil, errors.Join(errNotInProcess, r.failed)
	}
	slices.Sort(r.graph.Skipped)
	variantFailed := map[string]bool{}
	for _, id := range slices.Concat(slices.Collect(maps.Keys(r.graph.Errors)), r.graph.Skipped) {
		variantFailed[importPathOf(id)] = true
	}
	maps.DeleteFunc(r.graph.Untested, func(path string, _ map[string][]jsonDiagnostic) bool { return !variantFailed[path] })
	if keep {
		storeGraph(key, r.graph)
	}
	res.graph = r.graph
	return res, nil
}

// resultKey hashes what a run's tree depends on: this binary, the flags
// and patterns, the directory they are relative to, the toolchain, and
// every package of the graph: its files' contents, or, for the standard
// library, which of its files the build uses (the toolchain's GOROOT
// fixes their contents).
func resultKey(o *driverOptions, toolchain string, pkgs []*listedPackage) (string, error) {
	h := sha256.New()
	self, err := os.Executable()
	if err != nil {
		return "", err
	}
	if err := hashFile(h, self); err != nil {
		return "", err
	}
	wd, _ := os.Getwd()
	fmt.Fprintf(h, "%q %q %q %q %s\n", wd, o.passFlags, o.patterns, os.Getenv("LOCKGAP_BENCH_NONCE"), toolchain)
	for _, p := range pkgs {
		fmt.Fprintf(h, "%s %s %q %v %v\n", p.ImportPath, p.Dir, p.Module, p.Imports, p.CompiledGoFiles)
		if p.Standard {
			continue
		}
		for _, name := range p.CompiledGoFiles {
			if err := hashFile(h, absIn(p.Dir, name)); err != nil {
				return "", err
			}
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

func hashFile(h io.Writer, name string) error {
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = io.Copy(h, f)
	return err
}

// The trees of earlier runs, by key, in the user's cache directory; a
// warm run costs its go list and the hashing of the files it names.
func cacheDir() (string, bool) {
	if os.Getenv("LOCKGAP_CACHE") == "off" {
		return "", false
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", false
	}
	return filepath.Join(dir, "lockgap", "inprocess"), true
}

// cachedTreesKept bounds the cache: the oldest trees go first.
const cachedTreesKept = 64

func cachedGraph(key string) (analysedGraph, bool) {
	var graph analysedGraph
	dir, ok := cacheDir()
	if !ok {
		return graph, false
	}
	data, err := os.ReadFile(filepath.Join(dir, key+".json"))
	if err != nil || json.Unmarshal(data, &graph) != nil || graph.Tree == nil {
		return graph, false
	}
	now := time.Now()
	os.Chtimes(filepath.Join(dir, key+".json"), now, now) // recently used
	return graph, true
}

func storeGraph(key string, graph analysedGraph) {
	dir, ok := cacheDir()
	if !ok || os.MkdirAll(dir, 0o755) != nil {
		return
	}
	data, err := json.Marshal(graph)
	if err != nil {
		return
	}
	tmp, err := os.CreateTemp(dir, "tree-*")
	if err != nil {
		return
	}
	_, werr := tmp.Write(data)
	if cerr := tmp.Close(); werr != nil || cerr != nil || os.Rename(tmp.Name(), filepath.Join(dir, key+".json")) != nil {
		os.Remove(tmp.Name())
		return
	}
	entries, err := os.ReadDir(dir)
	if err != nil || len(entries) <= cachedTreesKept {
		return
	}
	type aged struct {
		name string
		mod  time.Time
	}
	var all []aged
	for _, e := range entries {
		if info, err := e.Info(); err == nil {
			all = append(all, aged{e.Name(), info.ModTime()})
		}
	}
	slices.SortFunc(all, func(a, b aged) int { return a.mod.Compare(b.mod) })
	for _, a := range all[:max(0, len(all)-cachedTreesKept)] {
		os.Remove(filepath.Join(dir, a.name))
	}
}

// selectAnalyzers returns the passes the flags leave enabled, with the
// analyzers they require before them, as multichecker would run them:
// naming a pass =true runs only the passes so named, =false leaves one
// out. A -PASS.FLAG sets that flag of the pass. Every one runs on every
// package: the engine's facts come from the packages it runs on.
func selectAnalyzers(passFlags []string) ([]*analysis.Analyzer, error) {
	on, off := map[string]bool{}, map[string]bool{}
	for _, f := range passFlags {
		name, value, _ := strings.Cut(strings.TrimLeft(f, "-"), "=")
		if pass, flagName, ok := strings.Cut(name, "."); ok {
			for _, a := range passes {
				if a.Name == pass {
					if err := a.Flags.Set(flagName, cmp.Or(value, "true")); err != nil {
						return nil, err
					}
				}
			}
			continue
		}
		if value == "false" {
			off[name] = true
		} else {
			on[name] = true
		}
	}
	var order []*analysis.Analyzer
	seen := map[*analysis.Analyzer]bool{}
	var add func(a *analysis.Analyzer)
	add = func(a *analysis.Analyzer) {
		if seen[a] {
			return
		}
		seen[a] = true
		for _, req := range a.Requires {
			add(req)
		}
		order = append(order, a)
	}
	for _, a := range passes {
		if (len(on) == 0 || on[a.Name]) && !off[a.Name] {
			add(a)
		}
	}
	return order, nil
}

// goEnv returns the go command's values of names, a line each.
func goEnv(names ...string) string {
	out, err := exec.Command("go", append([]string{"env"}, names...)...).Output()
	if err != nil {
		return ""
	}
	return string(out)
}

// analysePackage type-checks p from source and runs the analyzers on it,
// adding its findings to the tree when go vet would have printed them.
func (r *inProcessRun) analysePackage(p *listedPackage, byPath map[string]*listedPackage, report bool) (err error) {
	defer func() {
		if x := recover(); x != nil {
			err = fmt.Errorf("%s: panic: %v\n%s", p.ImportPath, x, debug.Stack())
		}
	}()
	var files []*ast.File
	var broken packageErrors
	for _, name := range p.CompiledGoFiles {
		f, err := parser.ParseFile(r.fset, absIn(p.Dir, name), nil, parser.ParseComments|parser.SkipObjectResolution)
		if list, ok := err.(scanner.ErrorList); ok {
			for _, e := range list {
				broken = broken.add(e.Pos, e.Msg)
			}
		} else if err != nil {
			return packageErrors{err.Error()}
		}
		files = append(files, f)
	}
	if broken != nil {
		return broken
	}
	info := &types.Info{
		Types:        map[ast.Expr]types.TypeAndValue{},
		Defs:         map[*ast.Ident]types.Object{},
		Uses:         map[*ast.Ident]types.Object{},
		Implicits:    map[ast.Node]types.Object{},
		Selections:   map[*ast.SelectorExpr]*types.Selection{},
		Scopes:       map[ast.Node]*types.Scope{},
		Instances:    map[*ast.Ident]types.Instance{},
		FileVersions: map[*ast.File]string{},
	}
	conf := types.Config{
		Sizes: r.sizes,
		Error: func(err error) {
			if e, ok := err.(types.Error); ok {
				broken = broken.add(e.Fset.Position(e.Pos), e.Msg)
			} else {
				broken = append(broken, err.Error())
			}
		},
		Importer: importerFunc(func(path string) (*types.Package, error) {
			if mapped, ok := p.ImportMap[path]; ok {
				path = mapped
			}
			if path == "unsafe" {
				return types.Unsafe, nil
			}
			d := byPath[path]
			switch {
			case d == nil:
				return nil, fmt.Errorf("%s is not among the packages listed", path)
			case d.Standard:
				return r.importStandard(d)
			case d.types == nil:
				return nil, fmt.Errorf("%s was not type-checked", path)
			}
			return d.types, nil
		}),
	}
	var module *analysis.Module
	if p.Module != nil {
		module = &analysis.Module{Path: p.Module.Path, Version: p.Module.Version, GoVersion: p.Module.GoVersion}
		if p.Module.GoVersion != "" {
			conf.GoVersion = "go" + p.Module.GoVersion
		}
	}
	pkg, _ := conf.Check(importPathOf(p.ImportPath), r.fset, files, info)
	if broken != nil {
		return broken
	}
	p.types = pkg

	results := map[*analysis.Analyzer]any{}
	var diags []analysis.Diagnostic
	var passOf []string
	for _, a := range r.analyzers {
		inputs := map[*analysis.Analyzer]any{}
		for _, req := range a.Requires {
			inputs[req] = results[req]
		}
		pass := &analysis.Pass{
			Analyzer:     a,
			Fset:         r.fset,
			Files:        files,
			OtherFiles:   absAll(p.Dir, p.OtherFiles),
			IgnoredFiles: absAll(p.Dir, p.IgnoredGoFiles),
			Pkg:          pkg,
			TypesInfo:    info,
			TypesSizes:   r.sizes,
			Module:       module,
			ResultOf:     inputs,
			ReadFile:     os.ReadFile,
			Report: func(d analysis.Diagnostic) {
				diags = append(diags, d)
				passOf = append(passOf, a.Name)
			},
			ImportObjectFact: func(obj types.Object, f analysis.Fact) bool { return r.importFact(obj, f) },
			ExportObjectFact: func(obj types.Object, f analysis.Fact) {
				if obj.Pkg() != pkg {
					panic(fmt.Sprintf("fact %T exported for %s of another package than %s", f, obj, pkg.Path()))
				}
				r.exportFact(obj, f)
			},
			ImportPackageFact: func(q *types.Package, f analysis.Fact) bool { return r.importFact(q, f) },
			ExportPackageFact: func(f analysis.Fact) { r.exportFact(pkg, f) },
			AllObjectFacts:    func() []analysis.ObjectFact { return r.allObjectFacts(a, dependencies(pkg)) },
			AllPackageFacts:   func() []analysis.PackageFact { return r.allPackageFacts(a, dependencies(pkg)) },
		}
		res, err := a.Run(pass)
		if err != nil {
			return fmt.Errorf("%s: %s: %v", p.ImportPath, a.Name, err)
		}
		results[a] = res
	}
	if report {
		r.addToTree(r.graph.Tree, p.ImportPath, diags, passOf)
	} else if !strings.Contains(p.ImportPath, " [") {
		r.addToTree(r.graph.Untested, p.ImportPath, diags, passOf)
	}
	return nil
}

// packageErrors are why a package could not be analysed: its parse or
// type errors, one "file:line:col: message" line each, the file named
// relative to the working directory where it is below it, as the go
// command names it.
type packageErrors []string

func (e packageErrors) Error() string { return strings.Join(e, "\n") }

// maxPackageErrors: as the compiler, the first ten say enough.
const maxPackageErrors = 10

func (e packageErrors) add(pos token.Position, msg string) packageErrors {
	switch {
	case len(e) > maxPackageErrors:
		return e
	case len(e) == maxPackageErrors:
		return append(e, "too many errors")
	}
	if wd, err := os.Getwd(); err == nil {
		if rel, err := filepath.Rel(wd, pos.Filename); err == nil && filepath.IsLocal(rel) {
			pos.Filename = rel
		}
	}
	return append(e, pos.String()+": "+msg)
}

// importStandard reads a standard package from its export data, once for
// the run (the reader fills in the packages it refers to as it goes).
func (r *inProcessRun) importStandard(p *listedPackage) (*types.Package, error) {
	r.exportMu.Lock()
	defer r.exportMu.Unlock()
	if pkg := r.imported[p.ImportPath]; pkg != nil && pkg.Complete() {
		return pkg, nil
	}
	if p.Export == "" {
		return nil, fmt.Errorf("no export data for %s", p.ImportPath)
	}
	f, err := os.Open(p.Export)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rd, err := gcexportdata.NewReader(f)
	if err != nil {
		return nil, err
	}
	return gcexportdata.Read(rd, r.fset, r.imported, p.ImportPath)
}

// importFact copies the fact of f's type about subject into f.
func (r *inProcessRun) importFact(subject any, f analysis.Fact) bool {
	r.factsMu.Lock()
	stored, ok := r.facts[factKey{subject, reflect.TypeOf(f)}]
	r.factsMu.Unlock()
	if ok {
		reflect.ValueOf(f).Elem().Set(reflect.ValueOf(stored).Elem())
	}
	return ok
}

func (r *inProcessRun) exportFact(subject any, f analysis.Fact) {
	r.factsMu.Lock()
	r.facts[factKey{subject, reflect.TypeOf(f)}] = f
	r.factsMu.Unlock()
}

// allObjectFacts returns a's facts about objects of deps: what the
// package would have read from its dependencies' facts files.
func (r *inProcessRun) allObjectFacts(a *analysis.Analyzer, deps map[*types.Package]bool) []analysis.ObjectFact {
	return factsAbout(r, a, deps, func(subject any, f analysis.Fact) (analysis.ObjectFact, *types.Package, bool) {
		obj, ok := subject.(types.Object)
		if !ok {
			return analysis.ObjectFact{}, nil, false
		}
		return analysis.ObjectFact{Object: obj, Fact: f}, obj.Pkg(), true
	})
}

func (r *inProcessRun) allPackageFacts(a *analysis.Analyzer, deps map[*types.Package]bool) []analysis.PackageFact {
	return factsAbout(r, a, deps, func(subject any, f analysis.Fact) (analysis.PackageFact, *types.Package, bool) {
		pkg, ok := subject.(*types.Package)
		return analysis.PackageFact{Package: pkg, Fact: f}, pkg, ok
	})
}

// factsAbout returns a's facts whose subject entry takes and places in
// one of deps, as entry makes them.
func factsAbout[T any](r *inProcessRun, a *analysis.Analyzer, deps map[*types.Package]bool, entry func(subject any, f analysis.Fact) (T, *types.Package, bool)) []T {
	kinds := factTypes(a)
	r.factsMu.Lock()
	defer r.factsMu.Unlock()
	var out []T
	for k, f := range r.facts {
		if e, pkg, ok := entry(k.subject, f); ok && kinds[k.t] && deps[pkg] {
			out = append(out, e)
		}
	}
	return out
}

// dependencies returns pkg and every package it imports, directly or not.
func dependencies(pkg *types.Package) map[*types.Package]bool {
	deps := map[*types.Package]bool{}
	var add func(p *types.Package)
	add = func(p *types.Package) {
		if !deps[p] {
			deps[p] = true
			for _, q := range p.Imports() {
				add(q)
			}
		}
	}
	add(pkg)
	return deps
}

func factTypes(a *analysis.Analyzer) map[reflect.Type]bool {
	m := map[reflect.Type]bool{}
	for _, f := range a.FactTypes {
		m[reflect.TypeOf(f)] = true
	}
	return m
}

// addToTree adds a package's findings as the vet tool prints them.
func (r *inProcessRun) addToTree(tree jsonTree, id string, diags []analysis.Diagnostic, passOf []string) {
	if len(diags) == 0 {
		return
	}
	posn := func(pos, end token.Pos) (string, string) {
		return r.fset.Position(pos).String(), r.fset.Position(cmp.Or(end, pos)).String()
	}
	r.treeMu.Lock()
	defer r.treeMu.Unlock()
	if tree[id] == nil {
		tree[id] = map[string][]jsonDiagnostic{}
	}
	for i, d := range diags {
		jd := jsonDiagnostic{Category: d.Category, Message: d.Message}
		jd.Posn, jd.End = posn(d.Pos, d.End)
		for _, rel := range d.Related {
			jr := jsonRelated{Message: rel.Message}
			jr.Posn, jr.End = posn(rel.Pos, rel.End)
			jd.Related = append(jd.Related, jr)
		}
		for _, fix := range d.SuggestedFixes {
			jf := jsonFix{Message: fix.Message, Edits: []jsonEdit{}}
			for _, e := range fix.TextEdits {
				start, end := r.fset.Position(e.Pos), r.fset.Position(cmp.Or(e.End, e.Pos))
				jf.Edits = append(jf.Edits, jsonEdit{Filename: start.Filename, Start: start.Offset, End: end.Offset, New: string(e.NewText)})
			}
			raw, err := json.Marshal(jf)
			if err == nil {
				jd.SuggestedFixes = append(jd.SuggestedFixes, raw)
			}
		}
		tree[id][passOf[i]] = append(tree[id][passOf[i]], jd)
	}
}

// importPathOf returns the import path of a package go list names with a
// variant's suffix ("p [p.test]").
func importPathOf(id string) string {
	path, _, _ := strings.Cut(id, " ")
	return path
}

func absIn(dir, name string) string {
	if filepath.IsAbs(name) {
		return name
	}
	return filepath.Join(dir, name)
}

func absAll(dir string, names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = absIn(dir, n)
	}
	return out
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

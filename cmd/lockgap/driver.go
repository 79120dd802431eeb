package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/lockgap/lockgap/internal/lockflow"
)

type runMode int

const (
	modeDrive   runMode = iota // standalone: in-process, or through go vet
	modeVet                    // invoked by go vet (or asked for its version, flags or help)
	modeChecker                // standalone, in-process checker
)

// allFlag is passed by the driver to the vet tool: analyse dependencies
// fully, not only for facts. The go command caches a package's vet output
// under a key that does not say whether the package was analysed for its
// own sake or only as a dependency; a dependency-only run caches no
// findings, and a later run of that package would replay the empty
// result. With this flag every run produces and caches the findings (the
// flag is part of the key, so plain go vet runs do not share entries), and
// the driver keeps those of the packages asked for.
const allFlag = "lockgap.all"

// skipStdFlag: the driver's runs that ask for no standard package.
const skipStdFlag = "lockgap.skipstd"

// silencedFlag lists, for a -fix run, the findings (file:line:col, comma
// separated) the driver found silenced by their callers in other packages.
const silencedFlag = "lockgap.silenced"

// requireInProcess=require makes -inprocess fail where it would go
// through go vet instead (for tests and comparisons).
const requireInProcess = "LOCKGAP_INPROCESS"

// nonceFlag changes nothing but the go command's cache keys: the
// benchmark sets LOCKGAP_BENCH_NONCE to measure cold runs without
// discarding compiled dependencies.
const nonceFlag = "lockgap.nonce"

func mode(args []string) runMode {
	for _, a := range args {
		switch {
		case a == "-V=full" || a == "-V" || a == "-flags" || a == "--flags":
			return modeVet
		case a == "-checker" || a == "--checker" || a == "-checker=true":
			return modeChecker
		}
	}
	if len(args) > 0 && (args[0] == "help" || strings.HasSuffix(args[len(args)-1], ".cfg")) {
		return modeVet
	}
	return modeDrive
}

// registerDriverFlags declares the driver's own flags on the command line
// multichecker parses, so that go vet (which asks -flags) passes them on.
func registerDriverFlags() {
	flag.Bool(allFlag, false, "report on dependencies too (set by lockgap's own driver; do not use)")
	flag.Bool(skipStdFlag, false, "skip standard packages analysed only as dependencies (set by lockgap's own driver; do not use)")
	flag.String(nonceFlag, "", "ignored; a new value gives new go vet cache keys (for cold benchmarks)")
	flag.Func(silencedFlag, "findings to leave alone (set by lockgap's own driver; do not use)", func(v string) error {
		lockflow.SilencedByCallers = map[string]bool{}
		for _, posn := range strings.Split(v, ",") {
			lockflow.SilencedByCallers[posn] = true
		}
		return nil
	})
	flag.Bool("checker", false, "analyse with the x/tools checker, which type-checks every dependency from source")
}

// useModuleContext: the driver's report runs (-lockgap.all) let the
// passes leave to the driver what callers in other packages decide.
func useModuleContext(args []string) {
	lockflow.ModuleContext = hasFlag(args, allFlag)
}

func withoutFlag(args []string, name string) []string {
	return slices.DeleteFunc(slices.Clone(args), func(a string) bool {
		return a == "-"+name || a == "--"+name || a == "-"+name+"=true"
	})
}

// vetArgs rewrites a go vet invocation made with -lockgap.all: the
// dependency-only config becomes a full one. With -lockgap.skipstd, a
// standard-library package seen only as a dependency is not analysed at
// all: vetArgs writes it an empty facts file and reports answered, and the
// tool exits without parsing or type-checking it. Its dependents import it
// from the compiler's export data, and an empty facts file means no facts;
// type-checking the standard library from source was most of a cold run.
func vetArgs(args []string) (_ []string, answered bool) {
	if len(args) < 2 || !strings.HasSuffix(args[len(args)-1], ".cfg") {
		return args, false
	}
	has := func(name string) bool {
		return slices.ContainsFunc(args, func(a string) bool { return a == "-"+name || a == "-"+name+"=true" })
	}
	if !has(allFlag) {
		return args, false
	}
	cfgPath := args[len(args)-1]
	data, err := os.ReadFile(cfgPath)
	if err != nil {
		return args, false
	}
	var cfg map[string]any
	if json.Unmarshal(data, &cfg) != nil {
		return args, false
	}
	lockflow.ThisModule, _ = cfg["ModulePath"].(string)
	if cfg["VetxOnly"] != true {
		return args, false
	}
	if has(skipStdFlag) && isStandard(cfg) {
		if out, _ := cfg["VetxOutput"].(string); out != "" && os.WriteFile(out, nil, 0o666) == nil {
			return args, true
		}
		return args, false // analysed after all: the tool writes the file
	}
	cfg["VetxOnly"] = false
	out, err := json.Marshal(cfg)
	if err != nil {
		return args, false
	}
	full := strings.TrimSuffix(cfgPath, ".cfg") + ".full.cfg"
	if os.WriteFile(full, out, 0o644) != nil {
		return args, false
	}
	args = slices.Clone(args)
	args[len(args)-1] = full
	return args, false
}

// isStandard reports whether a go vet config describes a package of the
// standard library (or the go command's own tree): no module, and no dot
// in the first element of its import path.
func isStandard(cfg map[string]any) bool {
	path, _ := cfg["ImportPath"].(string)
	mod, _ := cfg["ModulePath"].(string)
	first, _, _ := strings.Cut(path, "/")
	return path != "" && mod == "" && !strings.Contains(first, ".")
}

type driverOptions struct {
	json, fix, diff, tests bool
	singleProcess          bool   // -inprocess: the report run in this process (inprocess.go)
	sarif                  string // "" none, "-" stdout, else a file
	passFlags              []string
	patterns               []string
}

func parseDriverFlags(args []string) (*driverOptions, error) {
	o := &driverOptions{}
	fs := flag.NewFlagSet("lockgap", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.BoolVar(&o.json, "json", false, "emit JSON output")
	fs.BoolVar(&o.fix, "fix", false, "apply all suggested fixes")
	fs.BoolVar(&o.diff, "diff", false, "print the fixes as a unified diff instead of writing them (implies -fix)")
	fs.BoolVar(&o.singleProcess, "inprocess", true, "analyse in this process, each package type-checked once (false: through go vet -vettool, a process per package; packages using cgo go that way for -fix)")
	fs.BoolVar(&o.tests, "test", true, "analyse test files too (false: no findings in them, and a package whose tests do not compile is analysed without them)")
	fs.Var(sarifFlag{&o.sarif}, "sarif", "emit SARIF 2.1.0 on stdout (-sarif) or into a file (-sarif=FILE)")
	fs.Int("c", -1, "ignored (go vet's context lines)")
	unused := fs.Bool("unused-ignores", false, "report //lockgap:ignore directives that silence nothing")
	enabled := map[string]*string{}
	for _, p := range passes {
		enabled[p.Name] = fs.String(p.Name, "", "enable (true) or disable (false) the "+p.Name+" pass")
	}
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	for name, v := range enabled {
		if *v != "" {
			o.passFlags = append(o.passFlags, "-"+name+"="+*v)
		}
		if *unused {
			o.passFlags = append(o.passFlags, "-"+name+"."+lockflow.UnusedIgnoresFlag)
		}
	}
	slices.Sort(o.passFlags)
	o.patterns = fs.Args()
	if len(o.patterns) == 0 {
		return nil, errors.New("no packages given")
	}
	if o.diff && !o.fix {
		o.fix = true
	}
	if o.sarif != "" && o.json {
		return nil, errors.New("-sarif and -json are two output formats: give one (-sarif=FILE writes SARIF and keeps the text report on stdout)")
	}
	if o.sarif != "" && o.fix {
		return nil, errors.New("-sarif reports findings; it cannot be combined with -fix or -diff")
	}
	return o, nil
}

const usage = `lockgap finds decisions taken in one critical section and acted on in another.

Usage: lockgap [-json | -sarif[=FILE]] [-fix [-diff]] [-test=false] [-PASS=false] [-unused-ignores] [-inprocess=false] packages
       lockgap help [PASS]
       go vet -vettool=$(which lockgap) packages

Exit status: 0 no findings, 3 findings, 1 errors.
`

// drive analyses the packages named on the command line, in-process or
// through go vet with this binary as the vet tool, and reports their
// findings.
func drive(args []string) int {
	o, err := parseDriverFlags(args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(os.Stderr, usage)
		return 0
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "lockgap: %v\n\n%s", err, usage)
		return 1
	}
	self, err := os.Executable()
	if err != nil {
		fmt.Fprintf(os.Stderr, "lockgap: %v\n", err)
		return 1
	}
	r, err := runReport(o, self)
	if err != nil {
		fmt.Fprintf(os.Stderr, "lockgap: %v\n", err)
		return 1
	}
	if o.fix && r.fixable != nil {
		// The report holds every fix, already settled: write (or show)
		// them.
		var diff io.Writer
		shown := &countingWriter{w: os.Stdout}
		if o.diff {
			diff = shown
		}
		_, _, err := applyFixes(r.tree.keep(r.roots, o.tests), r.fixable, diff)
		switch {
		case err == nil && r.runErr != nil:
			os.Stderr.Write(vetErrors(r.stderr.Bytes()))
			return 1
		case err == nil && shown.n > 0:
			return 1 // as go vet -fix -diff: there is something to fix
		case err == nil:
			return 0
		case !errors.Is(err, errNotFixable):
			fmt.Fprintf(os.Stderr, "lockgap: %v\n", err)
			return 1
		}
	}
	if o.fix {
		// Fixes only ever touch the packages asked for: no -lockgap.all.
		// The report run above said which findings callers in other
		// packages silence; a fix run sees one package at a time and is
		// told to leave them alone.
		vet := []string{"vet", "-vettool=" + self, "-fix"}
		if o.diff {
			vet = append(vet, "-diff")
		}
		if len(r.silenced) > 0 {
			vet = append(vet, "-"+silencedFlag+"="+strings.Join(r.silenced, ","))
		}
		// Where go vet could not load some packages, fix the ones that
		// load, as the report did, and say what failed.
		patterns := o.patterns
		if r.analysed != nil {
			patterns = r.analysed
		}
		if len(r.inProcess) > 0 {
			// The packages whose tests do not compile are fixed as they
			// were analysed: in-process, without their tests.
			patterns = nil
			for pkg := range r.roots {
				if !slices.Contains(r.inProcess, pkg) && (r.analysed == nil || slices.Contains(r.analysed, pkg)) {
					patterns = append(patterns, pkg)
				}
			}
			slices.Sort(patterns)
			fix := []string{"-checker", "-test=false", "-fix"}
			if o.diff {
				fix = append(fix, "-diff")
			}
			if len(r.silenced) > 0 {
				fix = append(fix, "-"+silencedFlag+"="+strings.Join(r.silenced, ","))
			}
			cmd := exec.Command(self, append(append(fix, o.passFlags...), r.inProcess...)...)
			cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
			if failed(cmd.Run()) {
				return 1
			}
		}
		if len(patterns) > 0 {
			cmd := exec.Command("go", append(append(vet, o.passFlags...), patterns...)...)
			cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
			if err := cmd.Run(); err != nil {
				return 1
			}
		}
		if r.analysed != nil {
			os.Stderr.Write(vetErrors(r.loadErrs))
			return 1
		}
		return 0
	}
	findings := r.tree.keep(r.roots, o.tests)
	switch {
	case o.sarif != "":
		// Analysis errors are listed in the run's notifications; as in
		// the other output modes they do not change the exit status.
		errs := rootErrors(r.treeErrs, r.roots)
		if r.runErr != nil {
			errs = append(errs, strings.TrimSpace(string(vetErrors(r.stderr.Bytes()))))
		}
		if err := emitSARIF(findings, errs, o.sarif, os.Stdout); err != nil {
			fmt.Fprintf(os.Stderr, "lockgap: writing SARIF: %v\n", err)
			return 1
		}
	case o.json:
		findings.printJSON(os.Stdout)
	default:
		findings.printText(os.Stdout)
	}
	if r.runErr != nil {
		// Type errors, build failures: go vet has said what they are.
		os.Stderr.Write(vetErrors(r.stderr.Bytes()))
		return 1
	}
	if findings.count() > 0 {
		return 3
	}
	return 0
}

// report is what the driver's go vet run found.
type report struct {
	tree     jsonTree // every package's findings, conditions settled
	treeErrs []treeError
	roots    map[string]bool // the packages asked for
	runErr   error           // go vet failed (its errors are in stderr)
	stderr   *bytes.Buffer
	silenced []string // findings dropped for their callers (positions)
	// analysed: the packages go vet was run on again, when it could not
	// load some of those asked for (whose errors are loadErrs).
	analysed []string
	loadErrs []byte
	// inProcess: the packages analysed without their tests, in-process,
	// because only their tests failed to compile (-test=false).
	inProcess []string
	// fixable: for an in-process report, the files its fixes may edit
	// (nil otherwise, or where some package asked for uses cgo).
	fixable map[string]bool
}

// runReport runs go vet with this binary as the vet tool over the
// packages asked for and their dependencies, and settles the findings
// that depend on callers in other packages.
func runReport(o *driverOptions, self string) (*report, error) {
	if o.singleProcess {
		run, err := runInProcess(o)
		if err == nil {
			tree, stderr, failed := run.graph.settle(run.roots, o.tests)
			silenced := settleConditions(tree, failed, run.roots, run.modules, moduleImporters)
			r := &report{tree: tree, roots: run.roots, stderr: bytes.NewBuffer(stderr), silenced: silenced, fixable: run.fixable}
			if len(stderr) > 0 {
				// As when go vet cannot load some packages: a fix run
				// that still goes through go vet (cgo, //line) fixes
				// the others, and the run ends saying what failed.
				r.runErr, r.loadErrs = errPackagesFailed, stderr
				r.analysed = []string{}
				for _, pkg := range slices.Sorted(maps.Keys(run.roots)) {
					if !failed[pkg] {
						r.analysed = append(r.analysed, pkg)
					}
				}
			}
			return r, nil
		}
		if os.Getenv(requireInProcess) == "require" {
			return nil, err
		}
	}
	// go list names the packages asked for; it runs beside go vet, which
	// takes longer, so that a warm run costs what go vet's does.
	type listed struct {
		roots   map[string]bool
		modules map[string]string
		err     error
	}
	list := make(chan listed, 1)
	go func() {
		roots, modules, err := listPackages(o.patterns)
		list <- listed{roots, modules, err}
	}()
	vet := []string{"vet", "-vettool=" + self, "-" + allFlag, "-json"}
	if !mayNameStd(o.patterns) {
		// No standard package was asked for: the standard library is only
		// a dependency, and its lock summaries matter to no caller
		// outside it (it exports no lock a caller takes). The flag also
		// keeps these runs' go vet cache entries apart from those of a
		// run that asks for the standard library.
		vet = append(vet, "-"+skipStdFlag)
	}
	if nonce := os.Getenv("LOCKGAP_BENCH_NONCE"); nonce != "" {
		vet = append(vet, "-"+nonceFlag+"="+nonce)
	}
	runVet := func(patterns []string) (stdout, stderr *bytes.Buffer, err error) {
		cmd := exec.Command("go", append(append(vet, o.passFlags...), patterns...)...)
		stdout, stderr = new(bytes.Buffer), new(bytes.Buffer)
		cmd.Stdout, cmd.Stderr = stdout, stderr
		return stdout, stderr, cmd.Run()
	}
	stdout, stderr, runErr := runVet(o.patterns)
	var analysed []string // when go vet had to be rerun on a subset
	var loadErrs []byte
	var inProcess []string // analysed without their tests (see withoutTests)
	l := <-list
	if l.err != nil {
		return nil, l.err
	}
	if runErr != nil && stdout.Len() == 0 {
		// go vet stops before analysing anything when a package cannot
		// be loaded (a dependency missing from the module proxy, say):
		// analyse the packages that load, and keep its errors for the
		// end.
		if ok, broken := loadable(o.patterns); len(ok) > 0 && broken > 0 {
			loadErrs = stderr.Bytes()
			stdout, stderr, _ = runVet(ok)
			stderr.Write(loadErrs)
			analysed = ok
		}
	}
	tree, treeErrs, err := decodeTrees(stdout)
	if err != nil {
		return nil, fmt.Errorf("reading go vet output: %v", err)
	}
	if runErr != nil && !o.tests {
		// go vet analyses a package with its tests; a package whose only
		// errors are in its test files, which -test=false leaves out, is
		// analysed without them in-process.
		var rest []byte
		rest, inProcess, runErr = withoutTests(o, self, tree, stderr.Bytes(), runErr)
		if len(inProcess) > 0 {
			stderr = bytes.NewBuffer(rest)
		}
	}
	failed := failedPackages(stderr.Bytes(), treeErrs, l.roots, analysed)
	silenced := settleConditions(tree, failed, l.roots, l.modules, moduleImporters)
	return &report{tree: tree, treeErrs: treeErrs, roots: l.roots, runErr: runErr, stderr: stderr, silenced: silenced,
		analysed: analysed, loadErrs: loadErrs, inProcess: inProcess}, nil
}

// withoutTests analyses, with the in-process checker and no test files,
// the packages whose go vet errors (in stderr, under their "# package"
// headers) are all in _test.go files, and adds their findings to tree.
// It returns the errors left and the run's error (nil when none is left).
// A package the checker cannot analyse either keeps its errors.
func withoutTests(o *driverOptions, self string, tree jsonTree, stderr []byte, runErr error) (rest []byte, pkgs []string, _ error) {
	type block struct {
		pkg       string
		lines     []string
		testsOnly bool
	}
	var blocks []*block
	var cur *block
	for _, line := range strings.SplitAfter(string(stderr), "\n") {
		if id, ok := strings.CutPrefix(line, "# "); ok {
			pkg := basePackage(strings.TrimPrefix(strings.TrimSuffix(strings.TrimSpace(id), "]"), "["))
			if cur == nil || cur.pkg != pkg {
				cur = &block{pkg: pkg, testsOnly: true}
				blocks = append(blocks, cur)
			}
			cur.lines = append(cur.lines, line)
			continue
		}
		if strings.TrimSpace(line) == "" {
			continue
		}
		if cur == nil {
			return stderr, nil, runErr // an error of no package: leave it all
		}
		cur.lines = append(cur.lines, line)
		cur.testsOnly = cur.testsOnly && strings.Contains(line, "_test.go:")
	}
	for _, b := range blocks {
		if b.testsOnly && len(b.lines) > 1 {
			pkgs = append(pkgs, b.pkg)
		}
	}
	if len(pkgs) == 0 {
		return stderr, nil, runErr
	}
	args := append(append([]string{"-checker", "-test=false", "-json"}, o.passFlags...), pkgs...)
	cmd := exec.Command(self, args...)
	var out bytes.Buffer
	cmd.Stdout = &out
	if failed(cmd.Run()) {
		return stderr, nil, runErr
	}
	more, errs, err := decodeTrees(&out)
	if err != nil || len(errs) > 0 {
		return stderr, nil, runErr
	}
	for pkg, byPass := range more {
		if tree[pkg] == nil {
			tree[pkg] = map[string][]jsonDiagnostic{}
		}
		for pass, diags := range byPass {
			tree[pkg][pass] = append(tree[pkg][pass], diags...)
		}
	}
	var left bytes.Buffer
	for _, b := range blocks {
		if !slices.Contains(pkgs, b.pkg) {
			left.WriteString(strings.Join(b.lines, ""))
		}
	}
	if left.Len() == 0 {
		return nil, pkgs, nil
	}
	return left.Bytes(), pkgs, runErr
}

// failed reports whether a run of lockgap itself ended in error: exit
// status 3 only says it found something.
func failed(err error) bool {
	ee, ok := err.(*exec.ExitError)
	return err != nil && (!ok || ee.ExitCode() != 3)
}

// vetErrors drops the "# package" headers go vet prints before each
// package's output, keeping the errors.
func vetErrors(b []byte) []byte {
	var out bytes.Buffer
	for _, line := range strings.SplitAfter(string(b), "\n") {
		if strings.HasPrefix(line, "# ") {
			continue
		}
		out.WriteString(line)
	}
	return out.Bytes()
}

// loadable lists the packages patterns match that load with all their
// dependencies, and counts those that do not.
func loadable(patterns []string) (ok []string, broken int) {
	cmd := exec.Command("go", append([]string{"list", "-e", "-f", "{{.ImportPath}} {{if or .Error .DepsErrors}}broken{{end}}"}, patterns...)...)
	out, err := cmd.Output()
	if err != nil {
		return nil, 0
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		switch {
		case len(f) == 1:
			ok = append(ok, f[0])
		case len(f) == 2:
			broken++
		}
	}
	return ok, broken
}

// listPackages resolves patterns to import paths, the set whose findings
// are reported.
// mayNameStd reports whether a pattern may match standard packages: "std",
// "cmd", or an import path whose first element has no dot (a module path
// without one errs on the safe side: std is then analysed, only slower).
func mayNameStd(patterns []string) bool {
	for _, p := range patterns {
		if strings.HasPrefix(p, ".") || filepath.IsAbs(p) || strings.HasPrefix(p, "-") {
			continue
		}
		first, _, _ := strings.Cut(p, "/")
		if !strings.Contains(first, ".") {
			return true
		}
	}
	return false
}

func listPackages(patterns []string) (roots map[string]bool, modules map[string]string, err error) {
	cmd := exec.Command("go", append([]string{"list", "-e", "-f", "{{.ImportPath}} {{with .Module}}{{.Path}}{{end}}"}, patterns...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, nil, fmt.Errorf("go list: %v\n%s", err, stderr.Bytes())
	}
	roots, modules = map[string]bool{}, map[string]string{}
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		roots[f[0]] = true
		if len(f) > 1 {
			modules[f[0]] = f[1]
		}
	}
	return roots, modules, nil
}

// countingWriter counts what it passes on.
type countingWriter struct {
	w io.Writer
	n int
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += n
	return n, err
}

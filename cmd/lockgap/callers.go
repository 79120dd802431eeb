package main

import (
	"fmt"
	"os/exec"
	"slices"
	"strings"

	"github.com/lockgap/lockgap/internal/lockflow"
)

// The driver's module-wide step (lockflow's entries.go): a finding whose
// function runs only at initialisation or through some exported entry
// functions comes with those entries as its condition; the packages
// calling an entry say, per call, whether it runs at initialisation. The
// finding is dropped when the whole picture was seen and every call is
// made at initialisation.

// entryCalls counts, per entry, the calls made at initialisation and the
// other uses.
type entryCalls struct{ atInit, other int }

// importersFunc lists, for a module, the packages of it importing each
// package (tests included).
type importersFunc func(module string) (map[string][]string, error)

// settleConditions removes the entry calls from tree and decides each
// conditional finding: dropped (its position returned) when every package
// of its module importing its package was analysed (is a root, and not
// among the failed), and the entries' calls are all made at
// initialisation, at least one; otherwise kept as a plain finding.
func settleConditions(tree jsonTree, failed, roots map[string]bool, modules map[string]string, importers importersFunc) (silenced []string) {
	calls := map[string]*entryCalls{}
	for _, byPass := range tree {
		seen := map[string]bool{}
		for _, diags := range byPass {
			for _, d := range diags {
				if d.Category != lockflow.EntryCallCategory || seen[d.Posn+d.Message] {
					continue
				}
				seen[d.Posn+d.Message] = true // one record per pass
				entry, ctx, _ := strings.Cut(d.Message, " ")
				c := calls[entry]
				if c == nil {
					c = &entryCalls{}
					calls[entry] = c
				}
				if ctx == "init" {
					c.atInit++
				} else {
					c.other++
				}
			}
		}
	}
	byModule := map[string]map[string][]string{}
	covered := func(pkg string) bool {
		mod := modules[pkg]
		if mod == "" || failed[pkg] {
			return false
		}
		imp, ok := byModule[mod]
		if !ok {
			var err error
			if imp, err = importers(mod); err != nil {
				imp = nil
			}
			byModule[mod] = imp
		}
		if imp == nil {
			return false
		}
		for _, q := range imp[pkg] {
			if !roots[q] || failed[q] {
				return false
			}
		}
		return true
	}
	holds := func(pkg, category string) bool {
		entries := strings.Fields(strings.TrimPrefix(category, lockflow.UnlessInitCategory))
		atInit := 0
		for _, e := range entries {
			if c := calls[e]; c != nil {
				if c.other > 0 {
					return false
				}
				atInit += c.atInit
			}
		}
		return atInit > 0 && covered(pkg)
	}
	for id, byPass := range tree {
		pkg := basePackage(id)
		for pass, diags := range byPass {
			kept := diags[:0]
			for _, d := range diags {
				switch {
				case d.Category == lockflow.EntryCallCategory:
					continue
				case strings.HasPrefix(d.Category, lockflow.UnlessInitCategory):
					if holds(pkg, d.Category) {
						silenced = append(silenced, d.Posn)
						continue
					}
					d.Category = ""
				}
				kept = append(kept, d)
			}
			if len(kept) == 0 {
				delete(byPass, pass)
			} else {
				byPass[pass] = kept
			}
		}
		if len(byPass) == 0 {
			delete(tree, id)
		}
	}
	slices.Sort(silenced)
	return slices.Compact(silenced)
}

// moduleImporters runs go list over a module's packages.
func moduleImporters(module string) (map[string][]string, error) {
	cmd := exec.Command("go", "list", "-e", "-f", `{{.ImportPath}} {{join .Imports " "}} {{join .TestImports " "}} {{join .XTestImports " "}}`, module+"/...")
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list %s/...: %v", module, err)
	}
	imp := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		for _, p := range f[1:] {
			if p != f[0] && !slices.Contains(imp[p], f[0]) {
				imp[p] = append(imp[p], f[0])
			}
		}
	}
	return imp, nil
}

// failedPackages names the packages whose analysis failed: those go vet
// printed errors for (under a "# package" header), those with analysis
// errors in the JSON, and, when go vet was rerun on the packages that
// load, the roots it left out.
func failedPackages(stderr []byte, treeErrs []treeError, roots map[string]bool, analysed []string) map[string]bool {
	failed := map[string]bool{}
	for _, line := range strings.Split(string(stderr), "\n") {
		if id, ok := strings.CutPrefix(line, "# "); ok {
			failed[basePackage(strings.TrimPrefix(strings.TrimSuffix(id, "]"), "["))] = true
		}
	}
	for _, e := range treeErrs {
		failed[basePackage(e.pkg)] = true
	}
	if analysed != nil {
		for r := range roots {
			if !slices.Contains(analysed, r) {
				failed[r] = true
			}
		}
	}
	return failed
}

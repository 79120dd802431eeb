package main

import (
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"

	"github.com/lockgap/lockgap/internal/lockflow"
)

// The driver's module-wide step (lockflow's entries.go and fresh.go): a
// finding whose function runs only at initialisation or through some
// exported entry functions comes with those entries as its condition; the
// packages calling an entry say, per call, whether it runs at
// initialisation. The finding is dropped when the whole picture was seen
// and every call is made at initialisation. Likewise for a finding whose
// lock belongs to an argument of an exported function that every call
// hands an object the caller has just made (fresh entries), and for one
// reached only through exported functions that every call makes with a
// lock held (locked entries, lockedentries.go).

// debugConditions prints how each condition of a finding was settled.
var debugConditions = os.Getenv("LOCKFLOW_DEBUG") != ""

// entryCalls counts, per entry and condition (view), the uses good for
// it (a call at initialisation, on a fresh object, with a lock held) and
// the other uses.
type entryCalls struct{ good, other int }

// importersFunc lists, for a module, the packages of it importing each
// package (tests included).
type importersFunc func(module string) (map[string][]string, error)

// settleConditions removes the entry calls from tree and decides each
// conditional finding: dropped (its position returned) when, for one of
// its conditions, every package of its module importing its package was
// analysed (is a root, and not among the failed), and the entries' uses
// are all of the kind the condition needs, at least one; otherwise kept
// as a plain finding.
func settleConditions(tree jsonTree, failed, roots map[string]bool, modules map[string]string, importers importersFunc) (silenced []string) {
	calls := map[string]*entryCalls{} // by entry and view
	for _, byPass := range tree {
		seen := map[string]bool{}
		for _, diags := range byPass {
			for _, d := range diags {
				if d.Category != lockflow.EntryCallCategory || seen[d.Posn+d.Message] {
					continue
				}
				seen[d.Posn+d.Message] = true // one record per pass
				f := strings.Fields(d.Message)
				if len(f) < 2 {
					continue
				}
				entry, view, other := f[0], f[1], false
				if view == "other" && len(f) > 2 {
					view, other = f[2], true
				}
				c := calls[entry+" "+view]
				if c == nil {
					c = &entryCalls{}
					calls[entry+" "+view] = c
				}
				if other {
					c.other++
				} else {
					c.good++
				}
			}
		}
	}
	byModule := map[string]map[string][]string{}
	// covered: every package of pkg's module importing it (all that
	// depend on it, with transitive) was analysed.
	covered := func(pkg string, transitive bool) bool {
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
		seen := map[string]bool{pkg: true}
		work := []string{pkg}
		for len(work) > 0 {
			p := work[len(work)-1]
			work = work[:len(work)-1]
			for _, q := range imp[p] {
				if !roots[q] || failed[q] {
					return false
				}
				if transitive && !seen[q] {
					seen[q] = true
					work = append(work, q)
				}
			}
		}
		return true
	}
	// holds: for one of the conditions, every use of its entries is of
	// the kind it needs (init: a call at initialisation; fresh: a call on
	// an object the caller just made; locked: a call with a lock held),
	// at least one was seen, and every package that could use them was
	// analysed. A method needs no import of its package to be called, so
	// fresh and locked entries need every dependent.
	holds := func(pkg, category string) bool {
		for _, cond := range strings.Split(category, lockflow.ConditionSeparator) {
			kind, list, _ := strings.Cut(cond, " ")
			view := map[string]string{lockflow.UnlessInitCategory: lockflow.InitView, lockflow.UnlessFreshCategory: lockflow.FreshView, lockflow.UnlessLockedCategory: lockflow.LockedView}[kind]
			good, spoilt := 0, false
			for _, e := range strings.Fields(list) {
				if c := calls[e+" "+view]; c != nil {
					spoilt = spoilt || c.other > 0
					good += c.good
				}
			}
			if debugConditions {
				fmt.Fprintf(os.Stderr, "condition %s of %s: good %d, spoilt %v, every dependent analysed %v\n", kind, list, good, spoilt, covered(pkg, kind != lockflow.UnlessInitCategory))
			}
			if view != "" && !spoilt && good > 0 && covered(pkg, kind != lockflow.UnlessInitCategory) {
				return true
			}
		}
		return false
	}
	for id, byPass := range tree {
		pkg := basePackage(id)
		for pass, diags := range byPass {
			kept := diags[:0]
			for _, d := range diags {
				switch {
				case d.Category == lockflow.EntryCallCategory:
					continue
				case strings.HasPrefix(d.Category, lockflow.UnlessInitCategory), strings.HasPrefix(d.Category, lockflow.UnlessFreshCategory),
					strings.HasPrefix(d.Category, lockflow.UnlessLockedCategory):
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

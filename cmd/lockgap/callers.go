package main

import (
	"fmt"
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

// entryCalls counts, per entry, the calls made at initialisation and the
// other uses.
type entryCalls struct{ atInit, fresh, locked, other int }

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
				switch ctx {
				case "init":
					c.atInit++
				case "fresh":
					c.fresh++
				case "locked":
					c.locked++
				default:
					c.other++
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
	// holds: every use of the entries is of the kind the condition needs
	// (init: a call at initialisation; fresh: a call on an object the
	// caller just made), at least one was seen, and every package that
	// could use them was analysed. A method needs no import of its
	// package to be called, so fresh entries need every dependent.
	holds := func(pkg, category string) bool {
		kind, list, _ := strings.Cut(category, " ")
		good := 0
		for _, e := range strings.Fields(list) {
			c := calls[e]
			if c == nil {
				continue
			}
			if c.other > 0 {
				return false
			}
			switch kind {
			case lockflow.UnlessInitCategory:
				if c.fresh > 0 {
					return false
				}
				good += c.atInit
			case lockflow.UnlessFreshCategory:
				if c.atInit > 0 {
					return false
				}
				good += c.fresh
			case lockflow.UnlessLockedCategory:
				good += c.locked
			}
		}
		return good > 0 && covered(pkg, kind != lockflow.UnlessInitCategory)
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

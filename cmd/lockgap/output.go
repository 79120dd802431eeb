package main

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
)

// The JSON the vet tool prints per package: package ID -> analyzer ->
// diagnostics (x/tools' analysisflags JSON tree).
type jsonTree map[string]map[string][]jsonDiagnostic

type jsonDiagnostic struct {
	Category       string            `json:"category,omitempty"`
	Posn           string            `json:"posn"`
	End            string            `json:"end,omitempty"`
	Message        string            `json:"message"`
	SuggestedFixes []json.RawMessage `json:"suggested_fixes,omitempty"`
	Related        []jsonRelated     `json:"related,omitempty"`
}

type jsonRelated struct {
	Posn    string `json:"posn"`
	End     string `json:"end,omitempty"`
	Message string `json:"message"`
}

// decodeTrees reads the concatenated per-package JSON objects go vet
// prints, merging them. The analysis errors among them ({"error": ...}
// entries) are returned apart.
func decodeTrees(r io.Reader) (jsonTree, []treeError, error) {
	all := jsonTree{}
	var errs []treeError
	dec := json.NewDecoder(r)
	for {
		var t map[string]map[string]json.RawMessage
		if err := dec.Decode(&t); err == io.EOF {
			return all, errs, nil
		} else if err != nil {
			return nil, nil, err
		}
		for pkg, byPass := range t {
			for pass, raw := range byPass {
				var diags []jsonDiagnostic
				if json.Unmarshal(raw, &diags) != nil {
					var e struct {
						Error string `json:"error"`
					}
					if json.Unmarshal(raw, &e) == nil && e.Error != "" {
						errs = append(errs, treeError{pkg, pass, e.Error})
					}
					continue
				}
				if all[pkg] == nil {
					all[pkg] = map[string][]jsonDiagnostic{}
				}
				all[pkg][pass] = append(all[pkg][pass], diags...)
			}
		}
	}
}

// treeError is an analysis error of one pass on one package.
type treeError struct{ pkg, pass, err string }

// rootErrors lists the errors of the root packages, sorted, once each.
func rootErrors(errs []treeError, roots map[string]bool) []string {
	var out []string
	for _, e := range errs {
		if roots == nil || roots[basePackage(e.pkg)] {
			out = append(out, e.pkg+": "+e.pass+": "+e.err)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// basePackage maps a package ID as go vet names it ("p [p.test]",
// "p_test [p.test]", "p.test") to the import path it belongs to.
func basePackage(id string) string {
	id, _, _ = strings.Cut(id, " ")
	id = strings.TrimSuffix(id, ".test")
	return strings.TrimSuffix(id, "_test")
}

// keep returns the findings of the root packages, each reported once (a
// package and its test variant share their non-test files).
func (t jsonTree) keep(roots map[string]bool, tests bool) jsonTree {
	out := jsonTree{}
	seen := map[string]bool{}
	ids := make([]string, 0, len(t))
	for id := range t {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		base := basePackage(id)
		if !roots[base] {
			continue
		}
		for pass, diags := range t[id] {
			for _, d := range diags {
				file, _, _ := strings.Cut(d.Posn, ":")
				if !tests && strings.HasSuffix(file, "_test.go") {
					continue
				}
				key := pass + "\x00" + d.Posn + "\x00" + d.Message
				if seen[key] {
					continue
				}
				seen[key] = true
				if out[base] == nil {
					out[base] = map[string][]jsonDiagnostic{}
				}
				out[base][pass] = append(out[base][pass], d)
			}
		}
	}
	return out
}

func (t jsonTree) count() int {
	n := 0
	for _, byPass := range t {
		for _, diags := range byPass {
			n += len(diags)
		}
	}
	return n
}

func (t jsonTree) printJSON(w io.Writer) {
	data, _ := json.MarshalIndent(t, "", "\t")
	fmt.Fprintf(w, "%s\n", data)
}

// printText prints findings as the x/tools checkers do, in position order.
func (t jsonTree) printText(w io.Writer) {
	var all []jsonDiagnostic
	for _, byPass := range t {
		for _, diags := range byPass {
			all = append(all, diags...)
		}
	}
	slices.SortFunc(all, func(a, b jsonDiagnostic) int { return cmp.Compare(posnKey(a.Posn), posnKey(b.Posn)) })
	for _, d := range all {
		fmt.Fprintf(w, "%s: %s\n", d.Posn, d.Message)
		for _, r := range d.Related {
			fmt.Fprintf(w, "%s: \t%s\n", r.Posn, r.Message)
		}
	}
}

// posnKey orders "file:line:col" by file, then numerically.
func posnKey(p string) string {
	parts := strings.Split(p, ":")
	if len(parts) < 3 {
		return p
	}
	n := len(parts)
	return fmt.Sprintf("%s:%08s:%08s", strings.Join(parts[:n-2], ":"), parts[n-2], parts[n-1])
}

// Package plugin registers lockgap as a golangci-lint v2 module plugin.
//
// .custom-gcl.yml (golangci-lint custom):
//
//	version: v2.15.0
//	plugins:
//	  - module: github.com/lockgap/lockgap
//	    import: github.com/lockgap/lockgap/plugin
//	    version: <a lockgap version>
//
// .golangci.yml:
//
//	linters:
//	  enable: [lockgap]
//	  settings:
//	    custom:
//	      lockgap:
//	        type: module
//	        settings:
//	          staleguard: false   # every pass is on unless set false
//
// Settings name passes; a key that names no pass is an error.
//
// Each finding is one golangci-lint issue: the places a finding points at
// (the stale read, the unlock) are appended to its message, as in
// "(sess read under the read lock at line 29, lock released at line 30)",
// rather than passed on as related information, which golangci-lint would
// print as issues of their own that a //nolint:lockgap on the finding's
// line leaves standing.
package plugin

import (
	"encoding/json"
	"fmt"
	"go/token"
	"path/filepath"
	"slices"
	"strings"

	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis"

	"github.com/lockgap/lockgap/passes"
)

func init() {
	register.Plugin("lockgap", New)
}

type plugin struct {
	analyzers []*analysis.Analyzer
}

// New builds the plugin from its settings: pass name -> enabled.
func New(settings any) (register.LinterPlugin, error) {
	enabled := map[string]bool{}
	if settings != nil {
		data, err := json.Marshal(settings)
		if err != nil {
			return nil, fmt.Errorf("lockgap settings: %w", err)
		}
		if err := json.Unmarshal(data, &enabled); err != nil {
			return nil, fmt.Errorf("lockgap settings: want pass names mapped to true or false: %w", err)
		}
	}
	var names []string
	for _, a := range passes.All {
		names = append(names, a.Name)
	}
	for k := range enabled {
		if !slices.Contains(names, k) {
			return nil, fmt.Errorf("lockgap settings: unknown key %q (passes: %s)", k, strings.Join(names, ", "))
		}
	}
	p := &plugin{}
	for _, a := range passes.All {
		if on, set := enabled[a.Name]; !set || on {
			p.analyzers = append(p.analyzers, foldRelated(a))
		}
	}
	return p, nil
}

func (p *plugin) BuildAnalyzers() ([]*analysis.Analyzer, error) { return p.analyzers, nil }

func (p *plugin) GetLoadMode() string { return register.LoadModeTypesInfo }

// foldRelated returns a copy of a whose diagnostics carry their related
// information in the message (see the package doc).
func foldRelated(a *analysis.Analyzer) *analysis.Analyzer {
	w := *a
	w.Run = func(pass *analysis.Pass) (any, error) {
		report := pass.Report
		pass.Report = func(d analysis.Diagnostic) { report(fold(pass.Fset, d)) }
		defer func() { pass.Report = report }()
		return a.Run(pass)
	}
	return &w
}

// fold appends d's related information to its message: "msg (read at
// line 12, lock released at line 13)", naming the file when it is not d's.
func fold(fset *token.FileSet, d analysis.Diagnostic) analysis.Diagnostic {
	if len(d.Related) == 0 {
		return d
	}
	at := fset.Position(d.Pos)
	var parts []string
	for _, r := range d.Related {
		msg := strings.TrimSuffix(r.Message, " here")
		p := fset.Position(r.Pos)
		switch {
		case !p.IsValid():
			parts = append(parts, msg)
		case p.Filename == at.Filename:
			parts = append(parts, fmt.Sprintf("%s at line %d", msg, p.Line))
		default:
			parts = append(parts, fmt.Sprintf("%s at %s:%d", msg, filepath.Base(p.Filename), p.Line))
		}
	}
	d.Message = fmt.Sprintf("%s (%s)", d.Message, strings.Join(parts, ", "))
	d.Related = nil
	return d
}

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
package plugin

import (
	"encoding/json"
	"fmt"
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
			p.analyzers = append(p.analyzers, a)
		}
	}
	return p, nil
}

func (p *plugin) BuildAnalyzers() ([]*analysis.Analyzer, error) { return p.analyzers, nil }

func (p *plugin) GetLoadMode() string { return register.LoadModeTypesInfo }

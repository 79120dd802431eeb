package main

import (
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/lockgap/lockgap/internal/lockflow"
	"github.com/lockgap/lockgap/internal/lockflowtest"
	"github.com/lockgap/lockgap/passes/mutexmapdelete"
	"github.com/lockgap/lockgap/passes/rlockgap"
	"github.com/lockgap/lockgap/passes/staleguard"
)

// all reports what every pass reports, so one run over every fixture
// checks that each finding comes from exactly one pass and that no pass
// speaks where another's negatives must stay silent.
var all = &analysis.Analyzer{
	Name:     "all",
	Doc:      "every lockgap pass",
	Requires: []*analysis.Analyzer{lockflow.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		res := pass.ResultOf[lockflow.Analyzer].(*lockflow.Result)
		for _, d := range rlockgap.Pass.Findings(pass, res) {
			pass.Report(d)
		}
		for _, d := range staleguard.Pass.Findings(pass, res) {
			pass.Report(d)
		}
		return mutexmapdelete.Analyzer.Run(pass)
	},
}

func TestAllPassesAllFixtures(t *testing.T) {
	analysistest.Run(t, lockflowtest.TestData(), all,
		"servicedir", "lazyinit", "lostupdate", "lockkinds", "helpers", "checkthenact",
		"mutexmapseed", "mutexmapplain", "mutexmapkeys", "mutexmapsafe", "mutexmapwrap", "mutexmapgeneric", "mutexmaptypes", "testharness",
		"startup", "startup/prewarm", "startup/tenants", "startup/lazytables", "syncmap", "mutexmapstats", "perrequest")
}

// TestKnownFalse runs every pass over shapes lockgap reports that are
// not races in the programs they come from (testdata/src/knownfalse):
// each names the fact a per-package analysis lacks. A change that
// silences one fails here; move the shape to its topic's silent fixtures.
func TestKnownFalse(t *testing.T) {
	analysistest.Run(t, lockflowtest.TestData(), all, "knownfalse/...")
}

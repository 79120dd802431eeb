package rlockgap_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/lockgap/lockgap/internal/lockflowtest"
	"github.com/lockgap/lockgap/passes/rlockgap"
)

func TestRlockgap(t *testing.T) {
	analysistest.Run(t, lockflowtest.TestData(), rlockgap.Analyzer,
		"servicedir", "lazyinit", "lostupdate", "lockkinds", "helpers", "workers", "startup", "startup/prewarm", "perrequest", "claimchain")
}

func TestFixes(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, lockflowtest.TestData(), rlockgap.Analyzer, "lazyinitfix")
}

func TestFixedIsClean(t *testing.T) {
	lockflowtest.FixedIsClean(t, rlockgap.Analyzer, "lazyinitfix")
}

func TestUnusedIgnores(t *testing.T) {
	if err := rlockgap.Analyzer.Flags.Set("unused_ignores", "true"); err != nil {
		t.Fatal(err)
	}
	defer rlockgap.Analyzer.Flags.Set("unused_ignores", "false")
	analysistest.Run(t, lockflowtest.TestData(), rlockgap.Analyzer, "ignores")
}

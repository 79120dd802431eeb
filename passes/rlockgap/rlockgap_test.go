package rlockgap_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/lockgap/lockgap/internal/lockflow"
	"github.com/lockgap/lockgap/internal/lockflowtest"
	"github.com/lockgap/lockgap/passes/rlockgap"
)

func TestRlockgap(t *testing.T) {
	analysistest.Run(t, lockflowtest.TestData(), rlockgap.Analyzer,
		"servicedir", "lazyinit", "lostupdate", "lockkinds", "helpers", "reentry", "workers", "startup", "startup/prewarm", "perrequest", "claimchain", "iterlock/sessions", "iterlock/callbacks", "frameworks/dnsplugin", "frameworks/dskitservice")
}

// TestLazyLocks checks that a lock made on first use with no lock held
// silences the gaps on it in its package and, through a fact, in the
// packages using its type.
func TestLazyLocks(t *testing.T) {
	analysistest.Run(t, lockflowtest.TestData(), rlockgap.Analyzer, "crosspkg/profile", "crosspkg/signup")
}

// TestLocalObjects checks that an object a function makes with another
// package's constructor and only calls methods on that keep it (a fact
// says so) is its own: the gaps on it are silent, unless a method lets
// it out (a goroutine of its own, a package list) or the function does.
func TestLocalObjects(t *testing.T) {
	analysistest.Run(t, lockflowtest.TestData(), rlockgap.Analyzer, "crosspkg/replay")
}

func TestFixes(t *testing.T) {
	lockflowtest.RunWithSuggestedFixes(t, rlockgap.Analyzer, "lazyinitfix", "reentryinline")
}

func TestFixedIsClean(t *testing.T) {
	lockflowtest.FixedIsClean(t, rlockgap.Analyzer, "lazyinitfix", "reentryinline")
}

func TestUnusedIgnores(t *testing.T) {
	if err := rlockgap.Analyzer.Flags.Set("unused_ignores", "true"); err != nil {
		t.Fatal(err)
	}
	defer rlockgap.Analyzer.Flags.Set("unused_ignores", "false")
	analysistest.Run(t, lockflowtest.TestData(), rlockgap.Analyzer, "ignores")
}

// TestFreshEntries checks, as the driver's runs see them, the function a
// package marks because every call of it there is on an object the
// caller has just made, and the uses its dependents record (the driver
// settles the finding from these; cmd/lockgap's TestFreshEntries).
func TestFreshEntries(t *testing.T) {
	lockflow.ModuleContext, lockflow.ThisModule = true, "freshentries"
	defer func() { lockflow.ModuleContext, lockflow.ThisModule = false, "" }()
	analysistest.Run(t, lockflowtest.TestData(), rlockgap.Analyzer, "freshentries/...")
}

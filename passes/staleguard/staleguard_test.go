package staleguard_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/lockgap/lockgap/internal/lockflow"
	"github.com/lockgap/lockgap/internal/lockflowtest"
	"github.com/lockgap/lockgap/passes/staleguard"
)

func TestStaleguard(t *testing.T) {
	analysistest.Run(t, lockflowtest.TestData(), staleguard.Analyzer, "checkthenact", "consumers", "startup/setup", "startup/tenants", "startup/lazytables", "syncmap", "mainonly/...", "iterlock/registry", "frameworks/operator", "frameworks/parallel", "frameworks/telegrafplugin")
}

func TestFixes(t *testing.T) {
	lockflowtest.RunWithSuggestedFixes(t, staleguard.Analyzer, "checkthenactfix", "syncmapfix", "reentryfix")
}

func TestFixedIsClean(t *testing.T) {
	lockflowtest.FixedIsClean(t, staleguard.Analyzer, "checkthenactfix", "syncmapfix", "reentryfix")
}

// TestAcrossPackages checks the summaries store exports as facts and the
// finding they let staleguard make in admit.
func TestAcrossPackages(t *testing.T) {
	analysistest.Run(t, lockflowtest.TestData(), staleguard.Analyzer, "crosspkg/admit", "crosspkg/shelf")
}

// TestSerialCallbacks checks that a function handed to a helper of
// another package that calls it from one goroutine of its own (a
// SerialCallback fact) has one writer per object, and that a helper
// calling it from more, or a second caller, does not.
func TestSerialCallbacks(t *testing.T) {
	analysistest.Run(t, lockflowtest.TestData(), staleguard.Analyzer, "crosspkg/ticker", "crosspkg/exporter")
}

// TestInitEntries checks, as the driver's runs see them, the entries a
// registry marks and the calls of them its importers record (the driver
// settles the finding from these; cmd/lockgap's TestInitEntries).
func TestInitEntries(t *testing.T) {
	lockflow.ModuleContext, lockflow.ThisModule = true, "initentries"
	defer func() { lockflow.ModuleContext, lockflow.ThisModule = false, "" }()
	analysistest.Run(t, lockflowtest.TestData(), staleguard.Analyzer, "initentries/...")
}

// TestLockedEntries checks, as the driver's runs see them, the methods a
// package marks because its gap runs only through them, and the calls of
// them its dependents record as made with a lock held or not (the driver
// settles the finding from these; cmd/lockgap's TestLockedEntries).
func TestLockedEntries(t *testing.T) {
	lockflow.ModuleContext, lockflow.ThisModule = true, "lockedentries"
	defer func() { lockflow.ModuleContext, lockflow.ThisModule = false, "" }()
	analysistest.Run(t, lockflowtest.TestData(), staleguard.Analyzer, "lockedentries/...")
}

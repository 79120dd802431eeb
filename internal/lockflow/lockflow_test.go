package lockflow_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/lockgap/lockgap/internal/lockflow"
	"github.com/lockgap/lockgap/internal/lockflowtest"
)

// TestFacts checks the summaries a package exports for its lock-taking
// methods (crosspkg/admit uses them; see staleguard's tests).
func TestFacts(t *testing.T) {
	analysistest.Run(t, lockflowtest.TestData(), lockflow.Analyzer, "crosspkg/store")
}

// TestCallsBack checks the CallsBack facts of a package that takes no
// lock: a wrapper whose View calls its function back before returning
// (workers/stored.go relies on it), beside one that runs it later.
func TestCallsBack(t *testing.T) {
	analysistest.Run(t, lockflowtest.TestData(), lockflow.Analyzer, "workers/boltish")
}

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

package mutexmapdelete_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/lockgap/lockgap/internal/lockflowtest"
	"github.com/lockgap/lockgap/passes/mutexmapdelete"
)

func TestMutexMapDelete(t *testing.T) {
	analysistest.Run(t, lockflowtest.TestData(), mutexmapdelete.Analyzer,
		"mutexmapseed", "mutexmapplain", "mutexmapsafe", "mutexmapkeys", "mutexmapwrap", "mutexmapgeneric", "mutexmapstats", "mutexmaptests")
}

func TestFixes(t *testing.T) {
	lockflowtest.RunWithSuggestedFixes(t, mutexmapdelete.Analyzer, "mutexmapfix", "mutexmapkeyfix")
}

// TestFixedIsClean type-checks the fixed files and analyses them again:
// a fix must compile and must not be reported again.
func TestFixedIsClean(t *testing.T) {
	lockflowtest.FixedIsCleanWith(t, mutexmapdelete.Analyzer, []string{"mutexmaptypes"}, "mutexmapfix", "mutexmapkeyfix")
}

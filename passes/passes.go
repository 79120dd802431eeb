// Package passes lists lockgap's passes, so that every way of running
// lockgap (the binary, go vet, the golangci-lint plugin) has all of them.
package passes

import (
	"golang.org/x/tools/go/analysis"

	"github.com/lockgap/lockgap/passes/mutexmapdelete"
	"github.com/lockgap/lockgap/passes/rlockgap"
	"github.com/lockgap/lockgap/passes/staleguard"
)

// All are lockgap's passes.
var All = []*analysis.Analyzer{rlockgap.Analyzer, staleguard.Analyzer, mutexmapdelete.Analyzer}

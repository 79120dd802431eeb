package rlockgap

import (
	_ "embed"

	"golang.org/x/tools/go/analysis"

	"github.com/lockgap/lockgap/internal/lockflow"
)

//go:embed doc.go
var doc string

var Analyzer = &analysis.Analyzer{
	Name:     "rlockgap",
	Doc:      lockflow.PassDoc(doc, "rlockgap"),
	URL:      "https://pkg.go.dev/github.com/lockgap/lockgap/passes/rlockgap",
	Requires: []*analysis.Analyzer{lockflow.Analyzer},
	Run:      run,
}

var unusedIgnores bool

func init() {
	Analyzer.Flags.BoolVar(&unusedIgnores, lockflow.UnusedIgnoresFlag, false, "report //lockgap:ignore directives naming this pass that silence nothing")
}

var wording = lockflow.Wording{
	Relock:      "is locked again for writing after RUnlock",
	RelockBy:    "is locked again for writing by %s after RUnlock",
	ReadSection: "under the read lock",
	ThisSection: "under the write lock",
}

func run(pass *analysis.Pass) (any, error) {
	res := pass.ResultOf[lockflow.Analyzer].(*lockflow.Result)
	lockflow.ReportCrashes(pass, res)
	report, done := lockflow.Reporter(pass, pass.Analyzer.Name, true, unusedIgnores)
	for _, d := range Findings(pass, res) {
		report(d)
	}
	done()
	return nil, nil
}

// Findings returns the pass's diagnostics for the engine's result.
func Findings(pass *analysis.Pass, res *lockflow.Result) []analysis.Diagnostic {
	return lockflow.Findings(pass, res, wording, (*lockflow.Gap).IsUpgrade)
}

package staleguard

import (
	_ "embed"

	"golang.org/x/tools/go/analysis"

	"github.com/lockgap/lockgap/internal/lockflow"
)

//go:embed doc.go
var doc string

var Analyzer = &analysis.Analyzer{
	Name:     "staleguard",
	Doc:      lockflow.PassDoc(doc, "staleguard"),
	URL:      "https://pkg.go.dev/github.com/lockgap/lockgap/passes/staleguard",
	Requires: []*analysis.Analyzer{lockflow.Analyzer},
	Run:      run,
}

var unusedIgnores bool

func init() {
	Analyzer.Flags.BoolVar(&unusedIgnores, lockflow.UnusedIgnoresFlag, false, "report //lockgap:ignore directives naming this pass that silence nothing")
}

var wording = lockflow.Wording{
	Relock:      "is locked again after the section that checked",
	RelockBy:    "is locked again by %s after the section that checked",
	ReadSection: "in an earlier section",
	ThisSection: "in this section",
}

func run(pass *analysis.Pass) (any, error) {
	res := pass.ResultOf[lockflow.Analyzer].(*lockflow.Result)
	report, done := lockflow.Reporter(pass, pass.Analyzer.Name, false, unusedIgnores)
	for _, d := range Findings(pass, res) {
		report(d)
	}
	done()
	return nil, nil
}

// Findings returns the pass's diagnostics for the engine's result.
func Findings(pass *analysis.Pass, res *lockflow.Result) []analysis.Diagnostic {
	return lockflow.Findings(pass, res, wording, func(g *lockflow.Gap) bool { return !g.IsUpgrade() })
}

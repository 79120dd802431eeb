package rlockgap

import (
	_ "embed"
	"fmt"

	"golang.org/x/tools/go/analysis"

	"github.com/lockgap/lockgap/internal/lockflow"
)

//go:embed doc.go
var doc string

var Analyzer = &analysis.Analyzer{
	Name:     "rlockgap",
	Doc:      lockflow.PassDoc(doc),
	URL:      "https://pkg.go.dev/github.com/lockgap/lockgap/passes/rlockgap",
	Requires: []*analysis.Analyzer{lockflow.Analyzer},
	Run:      run,
}

func run(pass *analysis.Pass) (any, error) {
	res := pass.ResultOf[lockflow.Analyzer].(*lockflow.Result)
	src := lockflow.NewSource(pass)
	for _, c := range res.Crashes {
		pass.Reportf(c.Pos, "internal error analysing %s (please report): %s", c.Func, lockflow.FirstLine(c.Value))
	}
	for _, g := range res.Gaps {
		if g.AMode != lockflow.Read || g.BMode != lockflow.Write {
			continue // not an upgrade; staleguard's
		}
		pass.Report(diagnose(pass, src, g))
	}
	return nil, nil
}

func diagnose(pass *analysis.Pass, src *lockflow.Source, g *lockflow.Gap) analysis.Diagnostic {
	lock := src.Receiver(g.BOpen)
	relock := "is locked again for writing after RUnlock"
	if g.BHelper || lock == "" {
		lock = src.HelperLock(g)
		relock = fmt.Sprintf("is locked again for writing by %s after RUnlock", src.Callee(g.BOpen))
	}
	name := src.ValueName(g.Read)
	var why string
	switch g.Kind {
	case lockflow.LazyInit:
		why = fmt.Sprintf("%s was missing under the read lock, but another goroutine may have stored one since and this store replaces it; look it up again under the write lock and use the one found", name)
	case lockflow.LostUpdate:
		why = fmt.Sprintf("the value written derives from %s, read under the read lock; an update made in between is lost; re-read it under the write lock", name)
	case lockflow.StaleTarget:
		why = fmt.Sprintf("the write goes through %s, read under the read lock, which may have been removed or replaced since; look it up again under the write lock", name)
	case lockflow.Dropped:
		why = fmt.Sprintf("%s was present under the read lock; if it is removed before the write lock is taken, the re-check there gives up quietly and the update is lost; handle the missing case as the read path does (create it) or retry", name)
	default:
		why = fmt.Sprintf("the write is decided by %s, read under the read lock, which may be stale; re-check it under the write lock", name)
	}
	d := analysis.Diagnostic{
		Pos:     g.BOpen,
		Message: fmt.Sprintf("%s %s: %s", lock, relock, why),
		Related: []analysis.RelatedInformation{{Pos: g.Read, Message: fmt.Sprintf("%s read under the read lock here", name)}},
	}
	for _, p := range g.AReleases {
		d.Related = append(d.Related, analysis.RelatedInformation{Pos: p, Message: "read lock released here"})
		break
	}
	if fix, ok := lazyInitFix(pass, src, g); ok {
		d.SuggestedFixes = []analysis.SuggestedFix{fix}
	}
	return d
}

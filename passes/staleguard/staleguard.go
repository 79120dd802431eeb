package staleguard

import (
	_ "embed"

	"github.com/lockgap/lockgap/internal/lockflow"
)

//go:embed doc.go
var doc string

// Pass is staleguard: every gap that is not a read-to-write upgrade.
var Pass = lockflow.GapPass{
	Name: "staleguard",
	Doc:  doc,
	Wording: lockflow.Wording{
		Relock:      "is locked again after the section that checked",
		RelockBy:    "is locked again by %s after the section that checked",
		ReadSection: "in an earlier section",
		ThisSection: "in this section",
	},
	Owns:        func(g *lockflow.Gap) bool { return !g.IsUpgrade() },
	OwnsReentry: func(r lockflow.Reentry) bool { return !r.RWMutex },
}

var Analyzer = Pass.Analyzer()

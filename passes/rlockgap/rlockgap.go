package rlockgap

import (
	_ "embed"

	"github.com/lockgap/lockgap/internal/lockflow"
)

//go:embed doc.go
var doc string

// Pass is rlockgap: the engine's read-to-write upgrades of a
// sync.RWMutex.
var Pass = lockflow.GapPass{
	Name: "rlockgap",
	Doc:  doc,
	Wording: lockflow.Wording{
		Relock:      "is locked again for writing after RUnlock",
		RelockBy:    "is locked again for writing by %s after RUnlock",
		ReadSection: "under the read lock",
		ThisSection: "under the write lock",
	},
	Owns:        (*lockflow.Gap).IsUpgrade,
	OwnsReentry: func(r lockflow.Reentry) bool { return r.RWMutex },
	Crashes:     true,
}

var Analyzer = Pass.Analyzer()

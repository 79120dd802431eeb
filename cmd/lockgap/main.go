// Command lockgap finds decisions taken in one critical section and acted
// on in another: lock upgrades without a re-check, stale guards, and
// per-key mutex maps whose entries are deleted while held.
//
// Usage:
//
//	lockgap [flags] packages        # standalone; -fix, -diff, -json, -test
//	go vet -vettool=$(which lockgap) packages
package main

import (
	"golang.org/x/tools/go/analysis/multichecker"

	"github.com/lockgap/lockgap/passes/rlockgap"
	"github.com/lockgap/lockgap/passes/staleguard"
)

func main() {
	multichecker.Main(rlockgap.Analyzer, staleguard.Analyzer)
}

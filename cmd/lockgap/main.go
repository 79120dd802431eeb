// Command lockgap finds decisions taken in one critical section and acted
// on in another: lock upgrades without a re-check (rlockgap), stale
// guards (staleguard), and per-key mutexes removed while held or looked up
// with a key that never matches (mutexmapdelete).
//
// Usage:
//
//	lockgap [flags] packages                  # report; exit 0 clean, 3 findings, 1 errors
//	lockgap -fix [-diff] packages             # apply (or show) suggested fixes
//	lockgap -json packages                    # machine-readable findings
//	lockgap -sarif[=FILE] packages            # SARIF 2.1.0 on stdout or into FILE
//	lockgap help [pass]                       # documentation
//	go vet -vettool=$(which lockgap) packages # the same analysis under go vet
//
// Standalone runs ask the go command for the package graph and analyse it
// in this process: the standard library from its export data, every other
// package type-checked from source once, in dependency order, with
// lockgap's facts kept in memory; the result is cached by the contents it
// depends on. A package that does not load or compile is left out, with
// those importing it, and its errors printed as go vet prints them.
// -inprocess=false sends the run through `go vet -vettool` with this
// binary instead: a process per package, cached per package by the go
// command. The flag -checker analyses with the x/tools checker (it loads
// every dependency from source, the standard library included: slower
// and much larger).
package main

import (
	"os"

	"golang.org/x/tools/go/analysis/multichecker"

	lockgap "github.com/lockgap/lockgap/passes"
)

// passes are every pass lockgap has; each appears in every mode.
var passes = lockgap.All

func main() {
	switch mode(os.Args[1:]) {
	case modeVet:
		useModuleContext(os.Args[1:])
		var answered bool
		if os.Args, answered = vetArgs(os.Args); answered {
			return
		}
		registerDriverFlags()
		multichecker.Main(passes...)
	case modeChecker:
		if hasSARIF(os.Args[1:]) {
			os.Exit(checkerSARIF(os.Args[1:]))
		}
		os.Args = withoutFlag(os.Args, "checker")
		registerDriverFlags()
		multichecker.Main(passes...)
	default:
		os.Exit(drive(os.Args[1:]))
	}
}

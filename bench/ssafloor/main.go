// Command ssafloor is the benchmark's floor: a vet tool that loads each
// package, type-checks it and builds its SSA the way lockgap does, and
// does nothing else. lockgap's cost above it is what its passes add.
package main

import (
	"flag"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/unitchecker"

	"github.com/lockgap/lockgap/internal/lockflow"
)

var floor = &analysis.Analyzer{
	Name: "ssafloor",
	Doc:  "build SSA for every package and report nothing",
	Run: func(pass *analysis.Pass) (any, error) {
		lockflow.BuildSSA(pass)
		return nil, nil
	},
}

func main() {
	flag.String("nonce", "", "ignored; a new value gives new go vet cache keys")
	unitchecker.Main(floor)
}

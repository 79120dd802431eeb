// Command gen writes code for the packages named on its command line.
// It runs on one goroutine. Its Generator type and methods are exported,
// but no other package can import a command: main's own calls are all
// the calls, so the cache of standard-library roots, filled after a miss,
// cannot race: silent. A type whose values main hands to another package
// as an interface (a log's io.Writer) can be called there, on any
// goroutine: its fill after a miss is reported.
package main

import (
	"fmt"
	"log"
	"os"
	"path/filepath"
	"sync"
)

var rootsByGOROOT sync.Map // GOROOT -> map[string]bool

// Generator writes one package's code.
type Generator struct {
	GOROOT string
	std    map[string]bool
}

// Generate writes pkg's code.
func (g *Generator) Generate(pkg string) error {
	if g.isStd(pkg) {
		return nil
	}
	_, err := fmt.Fprintf(os.Stdout, "// code for %s\n", pkg)
	return err
}

func (g *Generator) isStd(pkg string) bool {
	if g.std == nil {
		g.loadRoots()
	}
	return g.std[pkg]
}

func (g *Generator) loadRoots() {
	root := filepath.Clean(g.GOROOT)
	if v, ok := rootsByGOROOT.Load(root); ok {
		g.std = v.(map[string]bool)
		return
	}
	m := map[string]bool{}
	entries, _ := os.ReadDir(filepath.Join(root, "src"))
	for _, e := range entries {
		m[e.Name()] = true
	}
	rootsByGOROOT.Store(root, m)
	g.std = m
}

var linesByPrefix sync.Map // prefix -> *int

// Tally counts the lines a log writes, by prefix.
type Tally struct{ Prefix string }

// Write counts one line.
func (t *Tally) Write(p []byte) (int, error) {
	if _, ok := linesByPrefix.Load(t.Prefix); !ok {
		n := 0
		linesByPrefix.Store(t.Prefix, &n) // want `linesByPrefix.Store stores what linesByPrefix.Load found missing`
	}
	return len(p), nil
}

func main() {
	g := &Generator{GOROOT: os.Getenv("GOROOT")}
	logger := log.New(&Tally{Prefix: "gen"}, "gen: ", 0)
	for _, pkg := range os.Args[1:] {
		if err := g.Generate(pkg); err != nil {
			logger.Println(err)
		}
	}
}

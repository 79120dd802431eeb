package rlockgap_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/lockgap/lockgap/passes/rlockgap"
)

func testdata() string {
	d, err := filepath.Abs(filepath.Join("..", "..", "testdata"))
	if err != nil {
		panic(err)
	}
	return d
}

func TestRlockgap(t *testing.T) {
	analysistest.Run(t, testdata(), rlockgap.Analyzer, "servicedir", "lazyinit", "lostupdate", "lockkinds")
}

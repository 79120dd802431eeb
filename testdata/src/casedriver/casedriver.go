// Package casedriver stands for a data-driven test runner of another
// module: it reads cases from a file and calls the test's function for
// each, one after another.
package casedriver

import "testing"

// Case is one command of a test file.
type Case struct {
	Cmd  string
	Args []string
}

// RunCases calls run for every case of the file at path, in order.
func RunCases(t *testing.T, path string, run func(t *testing.T, c *Case) string) {
	_ = run(t, &Case{Cmd: path})
}

// RunConcurrently calls f from n goroutines at once.
func RunConcurrently(t testing.TB, n int, f func()) {
	done := make(chan struct{})
	for range n {
		go func() { f(); done <- struct{}{} }()
	}
	for range n {
		<-done
	}
}

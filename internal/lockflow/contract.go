package lockflow

import (
	"go/ast"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// A documented calling contract: a method whose doc comment says callers
// must not run it concurrently, like a test clock's
//
//	// Add moves the mock clock forward.
//	// This should only be called from a single goroutine at a time.
//	func (m *Mock) Add(d time.Duration) { m.mu.Lock(); t := m.now.Add(d); m.mu.Unlock(); ...; m.mu.Lock(); m.now = t; m.mu.Unlock() }
//
// The lock is there for the other goroutines that read the state (the
// mock's timers), not to order two calls of Add: the author ruled those
// out. A gap in such a method is dropped when every writer of the state
// it read is itself under the contract (documented so, or run only by
// functions that are), so that the one goroutine the contract allows is
// the only one writing. A contract on one method only (another writer
// documented nowhere) leaves the gap reported.

// serialContractPhrases are what a doc comment says, lower-cased and with
// runs of spaces made one, to forbid concurrent calls.
var serialContractPhrases = []string{
	"not safe for concurrent use",
	"not safe to call concurrently",
	"not safe to be called concurrently",
	"not thread-safe",
	"not thread safe",
	"not threadsafe",
	"not goroutine-safe",
	"not goroutine safe",
	"not concurrency-safe",
	"not concurrency safe",
	"must not be called concurrently",
	"should not be called concurrently",
	"must not be called from multiple goroutines",
	"should not be called from multiple goroutines",
	"only be called from a single goroutine",
	"only be called from one goroutine",
	"only be called by a single goroutine",
	"only be called by one goroutine",
	"from a single goroutine at a time",
	"by one goroutine at a time",
	"from one goroutine at a time",
}

// documentedSerial reports whether fn's doc comment forbids concurrent
// calls of it.
func documentedSerial(fn *ssa.Function) bool {
	decl, ok := fn.Syntax().(*ast.FuncDecl)
	if !ok || decl.Doc == nil {
		return false
	}
	text := strings.ToLower(strings.Join(strings.Fields(decl.Doc.Text()), " "))
	for _, sentence := range strings.Split(text, ". ") {
		if strings.Contains(sentence, "return") {
			continue // about what the function hands back, not its calls
		}
		for _, p := range serialContractPhrases {
			if strings.Contains(sentence, p) {
				return true
			}
		}
	}
	return false
}

// underContract reports whether fn runs only under a documented serial
// contract: its own, or that of every function calling it (up the
// package's call chain, a few calls deep). Memoised.
func (e *engine) underContract(fn *ssa.Function) bool {
	if e.contractMemo == nil {
		e.contractMemo = make(map[*ssa.Function]bool)
	}
	var under func(fn *ssa.Function, depth int) bool
	under = func(fn *ssa.Function, depth int) bool {
		if documentedSerial(fn) {
			return true
		}
		if depth > 4 {
			return false
		}
		return e.calledOnlyFrom(fn, func(caller *ssa.Function) bool { return under(caller, depth+1) })
	}
	return memoised(e.contractMemo, fn, func(fn *ssa.Function) bool { return under(fn, 0) })
}

// contractSerialises reports whether g's function and every writer of
// what its stale read read run only under documented serial contracts.
func (e *engine) contractSerialises(g *Gap) bool {
	if !e.underContract(g.Fn) {
		return false
	}
	writers, insertOnly := e.stateWriters(g)
	for _, w := range writers {
		if w != g.Fn && !e.underContract(w) && !e.cannotUndo(g, w, insertOnly) {
			return false
		}
	}
	return true
}

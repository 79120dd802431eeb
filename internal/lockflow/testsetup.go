package lockflow

import (
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// TestSetUp reports whether instr is part of a test's set-up: it runs in
// a test, benchmark or fuzz function of a test file, or in a function a
// subtest runs (t.Run, b.Run), that never lets itself run beside others
// (no Parallel, RunParallel, in it or in the tests it is a subtest of), before it has done anything but ask testing
// for its name or the like and clear entries of maps and sync.Maps. The
// go test driver runs such a function alone: the top-level tests one
// after another, with the parallel ones held back until they are done,
// and a subtest while its parent waits. Whatever the test goes on to
// start has not started yet, so nothing of it can hold a lock it clears
// away there (a registry entry keyed by the test's own name).
func TestSetUp(instr ssa.Instruction) bool {
	fn := instr.Parent()
	if !inTestFile(fn) || !testEntry(fn) && (fn.Parent() == nil || !runBySubtest(fn)) {
		return false
	}
	for f := fn; f != nil; f = f.Parent() {
		if callsTesting(f, "Parallel", "RunParallel") {
			return false // (a parallel test's subtests run beside other tests)
		}
	}
	entry := fn.Blocks[0]
	for _, i := range entry.Instrs {
		if i == instr {
			return true
		}
		if c, ok := i.(ssa.CallInstruction); ok && !setUpCall(c.Common()) {
			return false
		}
	}
	return false
}

// setUpCall reports whether c does nothing a lock holder could be part
// of: a method of testing's (Name, Helper, Cleanup), or a removal from a
// map or sync.Map.
func setUpCall(c *ssa.CallCommon) bool {
	if testingMethod(c, "Name", "Helper", "Cleanup", "Setenv", "TempDir", "ReportAllocs") {
		return true
	}
	if bi, ok := c.Value.(*ssa.Builtin); ok {
		return bi.Name() == "delete" || bi.Name() == "clear"
	}
	// A sync.Map method that only takes entries out (syncMapSummary).
	callee := c.StaticCallee()
	if callee == nil {
		return false
	}
	obj, ok := callee.Object().(*types.Func)
	if !ok {
		return false
	}
	sum := syncMapSummary(obj)
	return sum != nil && len(sum.writes) > 0 && !slices.ContainsFunc(sum.writes, func(w relWrite) bool { return !w.removal })
}

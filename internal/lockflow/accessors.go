package lockflow

import (
	"fmt"
	"go/types"
	"strings"
	"sync"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
)

// Lock accessors: methods that hand out the address of a lock their
// receiver holds, as a *sync.Mutex or as a sync.Locker (func (s *Set)
// GetLock() sync.Locker { return &s.lock }). A caller's
// s.GetLock().Lock() and defer s.GetLock().Unlock() take and release
// s.lock, one section, as s.lock.Lock() would; through the interface
// nothing said which lock, and the two calls' results were two unrelated
// locks. Accessors are found in the package's SSA and exported as
// LockAccessor facts, so callers in other packages see them too.

// LockAccessor marks a function that returns the address of the lock at
// Steps (an encoded access path) from its parameter Param, the receiver
// first.
type LockAccessor struct {
	Param int
	Steps string
	RW    bool // a sync.RWMutex
}

func (*LockAccessor) AFact() {}

func (f *LockAccessor) String() string {
	return fmt.Sprintf("returns the lock arg%d%s", f.Param, renderSteps(f.Steps))
}

// lockAccessors holds the accessors known in this process, of the
// package being analysed and of those whose facts it imported. Entries
// are few (one per accessor) and keyed by the function's object, which
// every importer shares.
var lockAccessors sync.Map // *types.Func -> *LockAccessor

// findLockAccessors records the accessors among funcs, exports their
// facts, and imports those of the other packages' functions funcs call.
func findLockAccessors(pass *analysis.Pass, funcs []*ssa.Function) {
	for _, fn := range funcs {
		obj, _ := fn.Object().(*types.Func)
		if obj == nil {
			continue
		}
		if a := lockAccessorOf(fn); a != nil {
			lockAccessors.Store(obj, a)
			pass.ExportObjectFact(obj, a)
		}
	}
	for _, fn := range funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				c, ok := instr.(*ssa.Call)
				if !ok || !lockResult(c.Type()) {
					continue
				}
				callee := c.Call.StaticCallee()
				if callee == nil {
					continue
				}
				obj, _ := callee.Object().(*types.Func)
				if obj == nil || obj.Pkg() == nil || obj.Pkg() == pass.Pkg {
					continue
				}
				obj = obj.Origin()
				if _, known := lockAccessors.Load(obj); known {
					continue
				}
				var f LockAccessor
				if pass.ImportObjectFact(obj, &f) {
					// Another package's run may have imported it
					// meanwhile: the same fact, either will do.
					lockAccessors.LoadOrStore(obj, &f)
				}
			}
		}
	}
}

// lockResult reports whether t is what an accessor returns: a pointer to
// a sync.Mutex or sync.RWMutex, or a sync.Locker.
func lockResult(t types.Type) bool {
	if isNamed(t, "sync", "Locker") {
		return true
	}
	_, ok := lockPointee(t)
	return ok
}

// lockPointee reports whether t points to a sync.Mutex or a
// sync.RWMutex, and which.
func lockPointee(t types.Type) (rw, ok bool) {
	p, isPtr := types.Unalias(t).(*types.Pointer)
	if !isPtr {
		return false, false
	}
	switch {
	case isNamed(p.Elem(), "sync", "Mutex"):
		return false, true
	case isNamed(p.Elem(), "sync", "RWMutex"):
		return true, true
	}
	return false, false
}

// lockAccessorOf returns fn's accessor fact if every return of fn hands
// back the address of one lock rooted at one of its parameters.
func lockAccessorOf(fn *ssa.Function) *LockAccessor {
	sig := fn.Signature
	if sig.Results().Len() != 1 || !lockResult(sig.Results().At(0).Type()) || len(fn.Blocks) == 0 {
		return nil
	}
	var found *LockAccessor
	for _, b := range fn.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok {
			continue
		}
		v := ret.Results[0]
		if mi, ok := v.(*ssa.MakeInterface); ok {
			v = mi.X
		}
		rw, ok := lockPointee(v.Type())
		if !ok {
			return nil
		}
		p := lockPathOf(v)
		param, ok := p.Root.(*ssa.Parameter)
		if !ok || param.Parent() != fn || strings.Contains(p.Steps, "[") {
			// An element's lock (m.locks[k]) is named by the callee's
			// own key value, which means nothing to a caller: each
			// call may hand out another lock.
			return nil
		}
		if _, ptr := param.Type().Underlying().(*types.Pointer); !ptr {
			// A value receiver's steps (.mu of a copy) are not those
			// the caller's own access to the lock takes.
			return nil
		}
		a := &LockAccessor{Param: paramIndex(fn, param), Steps: p.Steps, RW: rw}
		if found != nil && *found != *a {
			return nil
		}
		found = a
	}
	return found
}

// accessedLock returns the lock a call of an accessor hands back, as a
// path in the caller.
func accessedLock(c *ssa.CallCommon) (p Path, rw, ok bool) {
	callee := c.StaticCallee()
	if callee == nil {
		return Path{}, false, false
	}
	obj, _ := callee.Object().(*types.Func)
	if obj == nil {
		return Path{}, false, false
	}
	v, known := lockAccessors.Load(obj.Origin())
	if !known {
		return Path{}, false, false
	}
	a := v.(*LockAccessor)
	if a.Param < 0 || a.Param >= len(c.Args) {
		return Path{}, false, false
	}
	base := lockPathOf(c.Args[a.Param])
	if base.Root == nil {
		return Path{}, false, false
	}
	return Path{Root: base.Root, Steps: base.Steps + a.Steps}, a.RW, true
}

// lockOperand is the lock a sync method is called on: the path of its
// receiver, or the lock an accessor call handed back.
func lockOperand(v ssa.Value) Path {
	if c, ok := v.(*ssa.Call); ok {
		if p, _, ok := accessedLock(c.Common()); ok {
			return p
		}
	}
	return lockPathOf(v)
}

// lockerOp classifies a Lock or Unlock called through a sync.Locker that
// holds a known lock: one converted in place (sync.Locker(&s.mu)), or
// one an accessor returned.
func lockerOp(c *ssa.CallCommon) (lockOp, bool) {
	if !isNamed(c.Value.Type(), "sync", "Locker") {
		return lockOp{}, false
	}
	var op lockOp
	switch c.Method.Name() {
	case "Lock":
		op.kind = opAcquire
	case "Unlock":
		op.kind = opRelease
	default:
		return lockOp{}, false
	}
	op.mode = Write
	switch x := c.Value.(type) {
	case *ssa.MakeInterface:
		rw, ok := lockPointee(x.X.Type())
		if !ok {
			return lockOp{}, false
		}
		op.path, op.rwmutex = lockPathOf(x.X), rw
	case *ssa.Call:
		p, rw, ok := accessedLock(x.Common())
		if !ok {
			return lockOp{}, false
		}
		op.path, op.rwmutex = p, rw
	default:
		return lockOp{}, false
	}
	op.pos = c.Pos()
	return op, true
}

package lockflow

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// Mode is how a section holds its lock.
type Mode uint8

const (
	Write Mode = iota + 1 // sync.Mutex.Lock, sync.RWMutex.Lock
	Read                  // sync.RWMutex.RLock
)

func (m Mode) String() string {
	if m == Read {
		return "read"
	}
	return "write"
}

type opKind uint8

const (
	opAcquire opKind = iota + 1
	opRelease
)

// lockOp is a call of a sync.Mutex or sync.RWMutex method that takes or
// releases a lock.
type lockOp struct {
	kind    opKind
	mode    Mode
	path    Path
	rwmutex bool
	pos     token.Pos
}

// syncLockOp classifies a call. Only direct calls of the concrete sync
// methods count; a sync.Locker interface names no lock we can follow.
func syncLockOp(c *ssa.CallCommon) (lockOp, bool) {
	callee := c.StaticCallee()
	if callee == nil || len(c.Args) == 0 {
		return lockOp{}, false
	}
	obj, ok := callee.Object().(*types.Func)
	if !ok || obj.Pkg() == nil || obj.Pkg().Path() != "sync" {
		return lockOp{}, false
	}
	recv := obj.Signature().Recv()
	if recv == nil {
		return lockOp{}, false
	}
	ptr, ok := recv.Type().(*types.Pointer)
	if !ok {
		return lockOp{}, false
	}
	named, ok := ptr.Elem().(*types.Named)
	if !ok {
		return lockOp{}, false
	}
	var op lockOp
	switch named.Obj().Name() {
	case "Mutex":
	case "RWMutex":
		op.rwmutex = true
	default:
		return lockOp{}, false
	}
	switch obj.Name() {
	case "Lock":
		op.kind, op.mode = opAcquire, Write
	case "Unlock":
		op.kind, op.mode = opRelease, Write
	case "RLock":
		op.kind, op.mode = opAcquire, Read
	case "RUnlock":
		op.kind, op.mode = opRelease, Read
	default:
		return lockOp{}, false // TryLock's outcome is data; not modelled
	}
	op.path = lockPathOf(c.Args[0])
	op.pos = c.Pos()
	return op, true
}

// syncUse says how a package uses package sync: at all (any object of
// it), and through lock methods. Packages that use none are skipped before
// SSA is built.
func syncUse(info *types.Info) (any, locks bool) {
	for _, obj := range info.Uses {
		if obj.Pkg() == nil || obj.Pkg().Path() != "sync" {
			continue
		}
		any = true
		if fn, ok := obj.(*types.Func); ok {
			switch fn.Name() {
			case "Lock", "RLock", "Unlock", "RUnlock":
				return true, true
			}
		}
	}
	return any, false
}

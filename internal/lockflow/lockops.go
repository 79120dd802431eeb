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
	claim   bool // a claim map's pseudo-lock (claims.go)
	pos     token.Pos
}

// syncLockOp classifies a call: a direct call of the concrete sync
// methods, or Lock and Unlock through a sync.Locker that holds a lock we
// can follow (accessors.go).
func syncLockOp(c *ssa.CallCommon) (lockOp, bool) {
	if c.IsInvoke() {
		return lockerOp(c)
	}
	callee := c.StaticCallee()
	if callee == nil || len(c.Args) == 0 {
		return lockOp{}, false
	}
	obj, ok := callee.Object().(*types.Func)
	if !ok || obj.Pkg() == nil {
		return lockOp{}, false
	}
	if obj.Pkg().Path() == "net/textproto" {
		return pipelineTurn(c, obj)
	}
	if obj.Pkg().Path() != "sync" {
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
	op.path = lockOperand(c.Args[0])
	op.pos = c.Pos()
	return op, true
}

// pipelineTurn classifies the calls that bracket a turn of a
// textproto.Pipeline: between StartResponse(id) and EndResponse(id) no
// other response runs (the same for requests), so a turn is a critical
// section of a lock named after the pipeline's sequencer.
func pipelineTurn(c *ssa.CallCommon, obj *types.Func) (lockOp, bool) {
	recv := obj.Signature().Recv()
	if recv == nil {
		return lockOp{}, false
	}
	if ptr, ok := recv.Type().(*types.Pointer); !ok || !isNamed(ptr.Elem(), "net/textproto", "Pipeline") {
		return lockOp{}, false
	}
	var op lockOp
	var seq string
	switch obj.Name() {
	case "StartRequest":
		op.kind, seq = opAcquire, "request"
	case "EndRequest":
		op.kind, seq = opRelease, "request"
	case "StartResponse":
		op.kind, seq = opAcquire, "response"
	case "EndResponse":
		op.kind, seq = opRelease, "response"
	default:
		return lockOp{}, false
	}
	op.mode = Write
	op.path = lockPathOf(c.Args[0])
	op.path.Steps += "." + seq + ";"
	op.pos = c.Pos()
	return op, true
}

func isNamed(t types.Type, pkg, name string) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == pkg && n.Obj().Name() == name
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
			if syncMapSummary(fn) != nil {
				return true, true // a sync.Map's calls are sections too
			}
		}
	}
	return any, false
}

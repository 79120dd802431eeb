package lockflow

import (
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// goStart is a place where a function starts on a goroutine of its own:
// a go statement, or a call of a Go method that is handed only that
// function (sync.WaitGroup's since Go 1.25, errgroup.Group's), read as the
// go statement it stands for: wg.Go(s.loop) as go s.loop(), and
// wg.Go(func() {...}) as go func() {...}(). Code moving from one spelling
// to the other keeps its findings.
type goStart struct {
	instr ssa.CallInstruction
	value ssa.Value   // the function started
	args  []ssa.Value // its arguments (a method value's receiver)
}

func (g *goStart) Parent() *ssa.Function  { return g.instr.Parent() }
func (g *goStart) Block() *ssa.BasicBlock { return g.instr.Block() }

// callee returns the function started, when it is a known one.
func (g *goStart) callee() *ssa.Function {
	switch v := g.value.(type) {
	case *ssa.Function:
		return v
	case *ssa.MakeClosure:
		f, _ := v.Fn.(*ssa.Function)
		return f
	}
	return nil
}

// goMethods: the types whose Go method starts its argument on a new
// goroutine, by package and type name.
var goMethods = map[[2]string]bool{
	{"sync", "WaitGroup"}:                   true,
	{"golang.org/x/sync/errgroup", "Group"}: true,
}

// servicePkgs: dskit's services package (and Cortex's copy of it). A
// service runs its running function, or each iteration of a timer
// service, on one goroutine of its own, started once.
var servicePkgs = map[string]bool{
	"github.com/grafana/dskit/services":                 true,
	"github.com/cortexproject/cortex/pkg/util/services": true,
}

// serviceStarted returns the index of the argument a dskit service
// constructor runs on the service's goroutine (the running function, or
// the timer's iteration), and whether the constructor calls it again and
// again itself; -1 for any other call.
func serviceStarted(callee *ssa.Function) (arg int, repeats bool) {
	if callee == nil || callee.Pkg == nil || callee.Signature.Recv() != nil || !servicePkgs[callee.Pkg.Pkg.Path()] {
		return -1, false
	}
	switch callee.Name() {
	case "NewBasicService":
		return 1, false
	case "NewTimerService":
		return 2, true
	}
	return -1, false
}

// startedByGoMethod returns the function value call hands to one of the
// Go methods of goMethods, or to a dskit service constructor, or nil.
func startedByGoMethod(call *ssa.Call) ssa.Value {
	c := call.Common()
	callee := c.StaticCallee()
	if i, _ := serviceStarted(callee); i >= 0 && i < len(c.Args) {
		v := c.Args[i]
		if ct, ok := v.(*ssa.ChangeType); ok {
			v = ct.X // a function converted to the service's function type
		}
		if _, isNil := v.(*ssa.Const); isNil {
			return nil
		}
		return v
	}
	if callee == nil || callee.Name() != "Go" || len(c.Args) != 2 {
		return nil
	}
	recv := callee.Signature.Recv()
	if recv == nil {
		return nil
	}
	n, ok := types.Unalias(deref(recv.Type())).(*types.Named)
	if !ok || n.Obj().Pkg() == nil || !goMethods[[2]string{n.Obj().Pkg().Path(), n.Obj().Name()}] {
		return nil
	}
	return c.Args[1]
}

// asGoStart returns instr as a goStart, or nil. A method value handed to
// a Go method (a closure over go/ssa's bound-method wrapper) starts the
// method itself, with the receiver as its argument.
func (e *engine) asGoStart(instr ssa.Instruction) *goStart {
	switch x := instr.(type) {
	case *ssa.Go:
		return &goStart{instr: x, value: x.Call.Value, args: x.Call.Args}
	case *ssa.Call:
		v := startedByGoMethod(x)
		if v == nil {
			return nil
		}
		if mc, ok := v.(*ssa.MakeClosure); ok {
			if f, ok := mc.Fn.(*ssa.Function); ok && f.Parent() == nil {
				if d := e.declaredBehind(f); d != nil {
					return &goStart{instr: x, value: d, args: mc.Bindings}
				}
			}
		}
		return &goStart{instr: x, value: v}
	}
	return nil
}

// startsClosure reports whether the closure mc is only started, by one
// Go method call that is handed it.
func startsClosure(mc *ssa.MakeClosure) bool {
	refs := *mc.Referrers()
	if len(refs) != 1 {
		return false
	}
	if ct, ok := refs[0].(*ssa.ChangeType); ok {
		refs = *ct.Referrers() // converted to a named function type first
		if len(refs) != 1 {
			return false
		}
	}
	call, ok := refs[0].(*ssa.Call)
	return ok && startedByGoMethod(call) == ssa.Value(mc)
}

// startedFunc returns the function of this package that g starts (the
// origin of an instance), or nil.
func (e *engine) startedFunc(g *goStart) *ssa.Function {
	if g == nil {
		return nil
	}
	f := g.callee()
	if f == nil {
		return nil
	}
	if o := f.Origin(); o != nil {
		f = o
	}
	if f.Pkg != e.pkg {
		return nil
	}
	return f
}

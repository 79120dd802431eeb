package lockflow

import (
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// LazyLocks marks a struct type whose mutex pointer fields Fields the
// package fills on first use (see lazyLock), so that gaps other packages
// find on those locks, through the type's methods, are judged alike.
type LazyLocks struct{ Fields []string }

func (*LazyLocks) AFact() {}

func (f *LazyLocks) String() string { return "lazy locks " + strings.Join(f.Fields, ", ") }

// lazyLock reports whether the lock at the end of p is kept behind a
// pointer field that the package declaring it fills on first use, with
// no lock held, where a test found it nil: func (i *Identity) lock()
// *sync.RWMutex { if i.l == nil { i.l = new(sync.RWMutex) }; return i.l }.
// Two goroutines meeting the object before its first lock would each
// make a mutex of their own, so the lock only ever works for an object
// one goroutine uses: a defensive lock, whose sections no other
// goroutine comes between.
func (e *engine) lazyLock(p Path) bool {
	steps, ok := strings.CutSuffix(p.Steps, "*;")
	if !ok || steps == "" {
		return false
	}
	var last *types.Var
	var holder types.Type
	walkPath(Path{Root: p.Root, Steps: steps}, func(h types.Type, f *types.Var, isLast bool) {
		if isLast {
			last, holder = f, h
		}
	})
	if last == nil || !lockField(last) {
		return false
	}
	if last.Pkg() == e.pkg.Pkg {
		return e.lazyLocks[last]
	}
	named, ok := holder.(*types.Named)
	var fact LazyLocks
	return ok && e.pass != nil && named.Obj().Pkg() == last.Pkg() &&
		e.pass.ImportObjectFact(named.Obj(), &fact) && slices.Contains(fact.Fields, last.Name())
}

// findLazyLocks records the mutex pointer fields the package's functions
// fill lazily, in functions that neither take a lock nor run only with
// one held, and exports them, by the struct type holding them.
func (e *engine) findLazyLocks() {
	e.lazyLocks = make(map[*types.Var]bool)
	byType := make(map[*types.TypeName][]string)
	for _, fn := range e.funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				st, ok := instr.(*ssa.Store)
				if !ok || !isFresh(st.Val) {
					continue
				}
				fa, ok := st.Addr.(*ssa.FieldAddr)
				if !ok || isFresh(fa.X) {
					continue
				}
				f := fieldVar(fa.X.Type(), fa.Field)
				if f == nil || f.Pkg() != e.pkg.Pkg || e.lazyLocks[f] || !lockField(f) || !onNilSideOf(b, fa.X, f) {
					continue
				}
				if e.hasLockCalls(fn) || e.onlyCalledLocked(fn) {
					continue // made under a lock: every goroutine gets the same one
				}
				e.lazyLocks[f] = true
				if named, ok := deref(fa.X.Type()).(*types.Named); ok && named.Obj().Pkg() == e.pkg.Pkg {
					byType[named.Obj()] = append(byType[named.Obj()], f.Name())
				}
			}
		}
	}
	if e.pass == nil {
		return
	}
	for obj, fields := range byType {
		e.pass.ExportObjectFact(obj, &LazyLocks{Fields: fields})
	}
}

// onNilSideOf reports whether b runs only where an If found the field f
// of obj nil.
func onNilSideOf(b *ssa.BasicBlock, obj ssa.Value, f *types.Var) bool {
	for d := b.Idom(); d != nil; d = d.Idom() {
		cond := ifCond(d)
		subject, missing, ok := existenceTest(cond)
		if !ok {
			continue
		}
		ld, ok := subject.(*ssa.UnOp)
		if !ok {
			continue
		}
		fa, ok := ld.X.(*ssa.FieldAddr)
		if !ok || fa.X != obj || fieldVar(fa.X.Type(), fa.Field) != f {
			continue
		}
		if side := d.Succs[missing]; side == b || side.Dominates(b) && len(side.Preds) == 1 {
			return true
		}
	}
	return false
}

// lockField reports whether the field f holds a *sync.Mutex or a
// *sync.RWMutex.
func lockField(f *types.Var) bool {
	_, ok := lockPointee(f.Type())
	return ok
}

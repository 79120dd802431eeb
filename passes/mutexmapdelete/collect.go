package mutexmapdelete

import (
	"fmt"
	"go/token"
	"go/types"
	"os"

	"golang.org/x/tools/go/ssa"

	"github.com/lockgap/lockgap/internal/lockflow"
)

// mapInfo is what the package does with one map, joined over all its
// functions.
type mapInfo struct {
	id      types.Object
	syncMap bool
	sites   []*site

	storedKeys []types.Type // dynamic key types stored (sync.Map)
	unknownKey bool         // some key stored has a dynamic type not known statically
	escaped    bool         // the map's address flows somewhere we do not follow

	mutex       bool // holds *sync.Mutex or *sync.RWMutex
	entry       bool // holds pointers to lock entries (see isEntryPtr)
	loadOrStore bool // has a get-or-create site

	storedAt []token.Pos // where lock values are put in
	lockedAt []token.Pos // where locks taken from the map are locked
	lockers  []ssa.Instruction

	// records: an entry stored is a record with mutexes inside, not a
	// lock entry (see isRecord): a holder also loses what it writes into
	// the entry taken out.
	records bool

	// lockedByUser: an entry's mutex is locked by code other than the
	// entry type's own methods, as a keyed lock's users do (an object
	// that locks itself in its methods is guarding its own fields).
	lockedByUser bool
}

// holdsLocks reports whether the map is a map of per-key locks.
func (mi *mapInfo) holdsLocks() bool {
	return mi.mutex || (mi.entry && mi.lockedByUser)
}

type analysis struct {
	pkg   *ssa.Package
	funcs []*ssa.Function
	maps  map[types.Object]*mapInfo
	order []*mapInfo

	wrappers map[*ssa.Function]wrapperOp
	callers  map[*ssa.Function][]ssa.CallInstruction

	d *derivation

	// verifiers are the maps whose lockers lock an entry and then check
	// that the map still holds it, retrying otherwise.
	verifiers map[types.Object]bool
	// unlocks[fn] lists the Unlock calls of fn (direct or deferred) whose
	// lock was taken from a map.
	unlocks map[*ssa.Function][]ssa.CallInstruction
}

func (a *analysis) info(id types.Object, syncMap bool) *mapInfo {
	mi := a.maps[id]
	if mi == nil {
		mi = &mapInfo{id: id, syncMap: syncMap}
		a.maps[id] = mi
		a.order = append(a.order, mi)
	}
	return mi
}

// staticCallee returns the package function a call invokes statically,
// generic instances mapped to their origin.
func (a *analysis) staticCallee(c *ssa.CallCommon) *ssa.Function {
	if c.IsInvoke() {
		return nil
	}
	fn := c.StaticCallee()
	if fn == nil {
		return nil
	}
	if o := fn.Origin(); o != nil {
		fn = o
	}
	if fn.Pkg != a.pkg {
		return nil
	}
	return fn
}

// findWrappers records the package functions that do nothing with a
// sync.Map but forward one operation to it: a receiver field, a key and a
// value taken straight from their parameters.
func (a *analysis) findWrappers() {
	for _, fn := range a.funcs {
		var found *wrapperOp
		n := 0
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(ssa.CallInstruction)
				if !ok {
					continue
				}
				n++ // a wrapper calls nothing but the one operation
				kind, ok := syncMapOp(call.Common())
				if !ok {
					continue
				}
				args := call.Common().Args
				w := wrapperOp{kind: kind, recvParam: -1, keyParam: -1, valParam: -1}
				if fa, ok := args[0].(*ssa.FieldAddr); ok && fn.Signature.Recv() != nil && soleField(fa.X.Type()) {
					w.recvParam = paramIndex(fn, fa.X)
				}
				if len(args) > 1 {
					w.keyParam = paramIndex(fn, unwrapIface(args[1]))
				}
				if v := valueArg(kind, args); v != nil {
					w.valParam = paramIndex(fn, unwrapIface(v))
				}
				found = &w
			}
		}
		if n != 1 || found == nil || found.recvParam < 0 {
			continue
		}
		if found.kind != opClear && found.kind != opRange && found.keyParam < 0 {
			continue
		}
		a.wrappers[fn] = *found
	}
}

// soleField reports whether t points to a struct whose only field is the
// sync.Map: the shape of a wrapper type.
func soleField(t types.Type) bool {
	p, ok := t.Underlying().(*types.Pointer)
	if !ok {
		return false
	}
	s, ok := coreStruct(p.Elem())
	return ok && s.NumFields() == 1
}

func paramIndex(fn *ssa.Function, v ssa.Value) int {
	for i, p := range fn.Params {
		if p == v {
			return i
		}
	}
	return -1
}

// valueArg returns the value a sync.Map operation stores.
func valueArg(kind opKind, args []ssa.Value) ssa.Value {
	switch kind {
	case opStore, opLoadOrStore, opSwap:
		if len(args) > 2 {
			return args[2]
		}
	case opCompareAndSwap:
		if len(args) > 3 {
			return args[3]
		}
	}
	return nil
}

// collect finds every operation on a map with an identity.
func (a *analysis) collect() {
	for _, fn := range a.funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				a.collectInstr(fn, instr)
			}
		}
	}
	for _, mi := range a.order {
		if n, ok := types.Unalias(mi.id.Type()).(*types.Named); ok {
			// A wrapper type whose type arguments show it holds locks.
			if args := n.TypeArgs(); args != nil {
				for i := 0; i < args.Len(); i++ {
					m, e := lockValue(args.At(i))
					mi.mutex = mi.mutex || m
					mi.entry = mi.entry || e
				}
			}
		}
	}
}

func (a *analysis) collectInstr(fn *ssa.Function, instr ssa.Instruction) {
	add := func(s *site) {
		if s.id == nil {
			return
		}
		s.fn, s.instr = fn, instr
		mi := a.info(s.id, s.syncMap)
		mi.sites = append(mi.sites, s)
		if s.kind == opLoadOrStore {
			mi.loadOrStore = true
		}
		if s.kind.stores() && s.val != nil {
			if s.syncMap {
				if kt := dynamicType(s.key); kt != nil {
					mi.storedKeys = appendType(mi.storedKeys, kt)
				} else {
					mi.unknownKey = true
				}
			}
			m, e := lockValue(unwrapIface(s.val).Type())
			if isRecord(unwrapIface(s.val).Type()) {
				mi.records = true
			}
			if m || e {
				mi.mutex = mi.mutex || m
				mi.entry = mi.entry || e
				mi.storedAt = append(mi.storedAt, s.pos)
			}
		}
	}
	switch x := instr.(type) {
	case ssa.CallInstruction:
		c := x.Common()
		if kind, ok := syncMapOp(c); ok {
			s := &site{kind: kind, syncMap: true, id: identity(c.Args[0]), recv: c.Args[0], pos: c.Pos(), keyArg: -1}
			if len(c.Args) > 1 {
				s.key, s.keyArg = c.Args[1], 0
			}
			s.val = valueArg(kind, c.Args)
			if call, ok := x.(*ssa.Call); ok {
				switch kind {
				case opLoad, opLoadOrStore, opLoadAndDelete, opSwap:
					s.result = call
				}
			}
			add(s)
			return
		}
		if bi, ok := c.Value.(*ssa.Builtin); ok && len(c.Args) > 0 {
			if _, ok := mapType(c.Args[0].Type()); !ok {
				return
			}
			switch bi.Name() {
			case "delete":
				if len(c.Args) == 2 {
					add(&site{kind: opDeleteBuiltin, id: identity(c.Args[0]), key: c.Args[1], pos: c.Pos(), keyArg: 1})
				}
			case "clear":
				add(&site{kind: opClear, id: identity(c.Args[0]), pos: c.Pos(), keyArg: -1})
			}
			return
		}
		if callee := a.staticCallee(c); callee != nil {
			w, ok := a.wrappers[callee]
			if !ok || w.recvParam >= len(c.Args) || w.keyParam >= len(c.Args) || w.valParam >= len(c.Args) {
				return
			}
			s := &site{kind: w.kind, syncMap: true, id: identity(c.Args[w.recvParam]), recv: c.Args[w.recvParam],
				pos: c.Pos(), keyArg: -1, wrapper: true}
			if w.keyParam >= 0 {
				s.key = c.Args[w.keyParam]
				s.keyArg = w.keyParam
				if callee.Signature.Recv() != nil {
					s.keyArg--
				}
			}
			if w.valParam >= 0 {
				s.val = c.Args[w.valParam]
			}
			if call, ok := x.(*ssa.Call); ok {
				switch w.kind {
				case opLoad, opLoadOrStore, opLoadAndDelete, opSwap:
					s.result = call
				}
			}
			add(s)
		}
	case *ssa.MapUpdate:
		add(&site{kind: opUpdate, id: identity(x.Map), key: x.Key, val: x.Value, pos: x.Pos(), keyArg: -1})
	case *ssa.Lookup:
		if _, ok := mapType(x.X.Type()); ok {
			add(&site{kind: opLookup, id: identity(x.X), key: x.Index, result: x, pos: x.Pos(), keyArg: -1})
		}
	}
}

func appendType(ts []types.Type, t types.Type) []types.Type {
	for _, u := range ts {
		if types.Identical(u, t) {
			return ts
		}
	}
	return append(ts, t)
}

// noteEscapes marks the sync.Maps whose address is used other than as
// the receiver of a method call we follow: a map handed to other code may
// be given keys we never see.
func (a *analysis) noteEscapes() {
	recvs := make(map[ssa.Instruction]ssa.Value)
	for _, mi := range a.order {
		for _, s := range mi.sites {
			if s.recv != nil {
				recvs[s.instr] = s.recv
			}
		}
	}
	var ops []*ssa.Value
	for _, fn := range a.funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if st, ok := instr.(*ssa.Store); ok {
					if p, ok := st.Addr.Type().Underlying().(*types.Pointer); ok && isSyncMapPtr(p.Elem()) {
						_, fresh := st.Val.(*ssa.Alloc)
						zero, _ := st.Val.(*ssa.Const) // nil
						if !fresh && zero == nil {
							a.escape(identity(st.Addr))
						}
					}
				}
				ops = instr.Operands(ops[:0])
				for i, op := range ops {
					if op == nil || *op == nil || !isSyncMapPtr((*op).Type()) {
						continue
					}
					if r, ok := recvs[instr]; ok && r == *op && i == receiverOperand(instr) {
						continue
					}
					if st, ok := instr.(*ssa.Store); ok && (i == 1 || isSyncMapPtr(st.Addr.Type())) {
						continue // storing into a sync.Map field, or a *sync.Map value: handled above
					}
					a.escape(identity(*op))
				}
			}
		}
	}
}

// receiverOperand is the operand index of the first call argument
// (operand 0 is the callee).
func receiverOperand(instr ssa.Instruction) int {
	if _, ok := instr.(ssa.CallInstruction); ok {
		return 1
	}
	return -1
}

func (a *analysis) escape(id types.Object) {
	if id == nil {
		return
	}
	if mi := a.maps[id]; mi != nil {
		mi.escaped = true
	}
}

func isSyncMapPtr(t types.Type) bool {
	p, ok := t.Underlying().(*types.Pointer)
	return ok && syncNamed(p.Elem(), "Map")
}

// noteLocks records where locks taken from maps are locked and unlocked,
// and which maps have lockers that verify what they locked.
func (a *analysis) noteLocks() {
	for _, fn := range a.funcs {
		lockedIDs := map[types.Object]bool{}
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(ssa.CallInstruction)
				if !ok {
					continue
				}
				_, acquire, ok := lockflow.LockCall(call.Common())
				if !ok {
					continue
				}
				ids := a.d.of[call.Common().Args[0]]
				if len(ids) == 0 {
					continue
				}
				if !acquire {
					a.unlocks[fn] = append(a.unlocks[fn], call)
					continue
				}
				if _, deferred := instr.(*ssa.Defer); deferred {
					continue
				}
				for _, id := range ids {
					lockedIDs[id] = true
					if mi := a.maps[id]; mi != nil {
						mi.lockedAt = append(mi.lockedAt, call.Common().Pos())
						mi.lockers = append(mi.lockers, instr)
						if !ownMethod(fn, call.Common().Args[0]) {
							mi.lockedByUser = true
						}
						// A mutex asserted out of a sync.Map makes it a
						// mutex map even when the stores are out of view.
						if isMutexPtr(call.Common().Args[0].Type()) && mi.syncMap {
							if _, isField := call.Common().Args[0].(*ssa.FieldAddr); !isField {
								mi.mutex = true
							}
						}
					}
				}
			}
		}
		if len(lockedIDs) == 0 {
			continue
		}
		// Identity check: two values taken from the map compared, in a
		// loop, in a function that locks one of them.
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				bin, ok := instr.(*ssa.BinOp)
				if !ok || (bin.Op != token.EQL && bin.Op != token.NEQ) {
					continue
				}
				for _, id := range a.d.of[bin.X] {
					if lockedIDs[id] && a.d.has(bin.Y, id) && bin.X != bin.Y && inLoop(b) {
						a.verifiers[id] = true
					}
				}
			}
		}
	}
}

// ownMethod reports whether the lock operand is a field of the receiver
// of the method (or a closure in it) where it is locked.
func ownMethod(fn *ssa.Function, lock ssa.Value) bool {
	fa, ok := lock.(*ssa.FieldAddr)
	if !ok {
		return false
	}
	for fn.Parent() != nil {
		fn = fn.Parent()
	}
	recv := fn.Signature.Recv()
	if recv == nil || !types.Identical(recv.Type(), fa.X.Type()) {
		return false
	}
	// A method that takes the lock and returns holding it is the entry's
	// Lock method: its callers are the users.
	return unlocksField(fn, fa.Field, 0)
}

// unlocksField reports whether fn unlocks a mutex in the field of that
// index, itself or in a function literal it defers (which may do more
// before unlocking). A literal it returns is its caller's to run.
func unlocksField(fn *ssa.Function, field, depth int) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			if _, acquire, ok := lockflow.LockCall(call.Common()); ok && !acquire {
				if f, ok := call.Common().Args[0].(*ssa.FieldAddr); ok && f.Field == field {
					return true
				}
			}
			if d, ok := instr.(*ssa.Defer); ok && depth < 2 {
				callee := d.Call.Value
				if c, ok := callee.(*ssa.MakeClosure); ok {
					callee = c.Fn
				}
				if lit, ok := callee.(*ssa.Function); ok && lit.Parent() == fn && unlocksField(lit, field, depth+1) {
					return true
				}
			}
		}
	}
	return false
}

// inLoop reports whether b can reach itself.
func inLoop(b *ssa.BasicBlock) bool {
	seen := map[*ssa.BasicBlock]bool{}
	work := append([]*ssa.BasicBlock(nil), b.Succs...)
	for len(work) > 0 {
		x := work[len(work)-1]
		work = work[:len(work)-1]
		if x == b {
			return true
		}
		if seen[x] {
			continue
		}
		seen[x] = true
		work = append(work, x.Succs...)
	}
	return false
}

// debugEnabled (MUTEXMAPDELETE_DEBUG set) lists every map with an
// identity and what the pass concluded about it, on standard error.
var debugEnabled = os.Getenv("MUTEXMAPDELETE_DEBUG") != ""

func debugf(format string, args ...any) {
	if debugEnabled {
		fmt.Fprintf(os.Stderr, format+"\n", args...)
	}
}

// handsOut reports whether the map itself escapes, or a function returns a
// value taken from it (a keyed lock handing its mutex to callers, who lock
// it out of view).
func (a *analysis) handsOut(mi *mapInfo) bool {
	if mi.escaped {
		return true
	}
	for _, fn := range a.funcs {
		for _, b := range fn.Blocks {
			if len(b.Instrs) == 0 {
				continue
			}
			ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
			if !ok {
				continue
			}
			for _, v := range ret.Results {
				if a.d.has(v, mi.id) {
					return true
				}
			}
		}
	}
	return false
}

// isRecord reports whether t points to a struct that carries a payload
// beside its mutexes (not a lock entry) and does not stand for a mutex
// itself (no Lock and Unlock methods, as a keyed lock's entry type has).
func isRecord(t types.Type) bool {
	p, ok := types.Unalias(t).(*types.Pointer)
	if !ok {
		return false
	}
	if _, ok := p.Elem().Underlying().(*types.Struct); !ok || isEntryPtr(t) {
		return false
	}
	ms := types.NewMethodSet(t)
	return ms.Lookup(nil, "Lock") == nil || ms.Lookup(nil, "Unlock") == nil
}

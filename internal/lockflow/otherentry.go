package lockflow

import (
	"slices"

	"golang.org/x/tools/go/ssa"
)

// A fill after a miss replaces what a racer stored only when it writes the
// entry that was found missing. A login that finds no session under the
// browser's cookie and starts one under a new random id writes another
// entry: two racing logins make two sessions, and neither is lost. The
// engine tells the two keys apart by where they come from: the values and
// functions they are computed from, followed back through locals, loads
// and calls. Keys that share none are different entries. A key made of
// constants alone is the same entry on every call, and is never told
// apart.

// keyOrigin is what a key is computed from: the parameters, free
// variables and other values it derives from, and the functions and
// package variables it involves (by name, so that two calls of one
// function count as one origin).
type keyOrigin struct {
	values map[ssa.Value]bool
	marks  map[string]bool
}

// maxKeyDepth bounds how far back a key is followed.
const maxKeyDepth = 12

// originOf returns what the key values vs derive from; ok is false when
// the walk gives up (too deep, or a value it cannot follow).
func originOf(vs ...ssa.Value) (o keyOrigin, ok bool) {
	o = keyOrigin{values: map[ssa.Value]bool{}, marks: map[string]bool{}}
	var walk func(v ssa.Value, depth int) bool
	walk = func(v ssa.Value, depth int) bool {
		if v == nil {
			return true
		}
		if depth > maxKeyDepth {
			return false
		}
		switch x := v.(type) {
		case *ssa.Const:
			return true
		case *ssa.Function:
			o.marks["f:"+x.String()] = true
			return true
		case *ssa.Global:
			o.marks["g:"+x.String()] = true
			return true
		case *ssa.Builtin:
			return true
		}
		if o.values[v] {
			return true
		}
		o.values[v] = true
		switch x := v.(type) {
		case *ssa.Parameter, *ssa.FreeVar:
			return true
		case *ssa.FieldAddr:
			// A field of a new local struct: what is stored in that
			// field, not in the others.
			if a, ok := x.X.(*ssa.Alloc); ok {
				for _, ref := range *a.Referrers() {
					switch r := ref.(type) {
					case *ssa.Store:
						if !walk(r.Val, depth+1) {
							return false
						}
					case *ssa.FieldAddr:
						if r.Field != x.Field {
							continue
						}
						for _, u := range *r.Referrers() {
							if st, ok := u.(*ssa.Store); ok && st.Addr == ssa.Value(r) && !walk(st.Val, depth+1) {
								return false
							}
						}
					}
				}
				return true
			}
		case *ssa.Alloc:
			// What is stored into the new variable, or into its fields.
			for _, ref := range *x.Referrers() {
				switch r := ref.(type) {
				case *ssa.Store:
					if !walk(r.Val, depth+1) {
						return false
					}
				case *ssa.FieldAddr, *ssa.IndexAddr:
					for _, u := range *r.(ssa.Value).Referrers() {
						if st, ok := u.(*ssa.Store); ok && st.Addr == r.(ssa.Value) && !walk(st.Val, depth+1) {
							return false
						}
					}
				}
			}
			return true
		case *ssa.Call:
			if f := x.Call.StaticCallee(); f != nil {
				o.marks["f:"+f.String()] = true
			} else if x.Call.IsInvoke() {
				o.marks["m:"+x.Call.Method.Name()] = true
			}
		}
		instr, ok := v.(ssa.Instruction)
		if !ok {
			return false
		}
		for _, op := range instr.Operands(nil) {
			if *op != nil && !walk(*op, depth+1) {
				return false
			}
		}
		return true
	}
	for _, v := range vs {
		if !walk(v, 0) {
			return o, false
		}
	}
	return o, true
}

// constant reports whether the origin is constants alone.
func (o keyOrigin) constant() bool {
	for v := range o.values {
		switch v.(type) {
		case *ssa.Parameter, *ssa.FreeVar, *ssa.Call:
			return false
		}
	}
	return len(o.marks) == 0
}

// shares reports whether two origins have a value or a mark in common.
func (o keyOrigin) shares(p keyOrigin) bool {
	for v := range o.values {
		if p.values[v] {
			return true
		}
	}
	for m := range o.marks {
		if p.marks[m] {
			return true
		}
	}
	return false
}

// otherEntry reports whether write w fills another entry than the one
// read r found missing: both keys are known, neither is a constant, and
// they come from nothing in common.
func (fs *funcState) otherEntry(r *readSite, w *writeSite) bool {
	if w.keyKnown && slices.ContainsFunc(w.keyMarks, isFreshKeyMark) {
		return true // a key drawn where it is written: no one else holds it
	}
	ro, ok := readOrigin(r)
	if !ok || !w.keyKnown {
		return false
	}
	wo, ok := originOf(w.keyFrom...)
	if !ok {
		return false
	}
	for _, m := range w.keyMarks {
		wo.marks[m] = true
	}
	return !ro.constant() && !wo.constant() && !ro.shares(wo)
}

// readOrigin is where the key of the entry r read comes from.
func readOrigin(r *readSite) (keyOrigin, bool) {
	switch {
	case r.key != nil:
		return originOf(r.key)
	case r.keyKnown:
		o, ok := originOf(r.keyFrom...)
		for _, m := range r.keyMarks {
			o.marks[m] = true
		}
		return o, ok
	}
	return keyOrigin{}, false
}

// summaryKey expresses the key of a write, for its summary.
func (fs *funcState) summaryKey(w *writeSite) (from []int, marks []string, ok bool) {
	if !w.keyKnown {
		return nil, nil, false
	}
	o, ok := originOf(w.keyFrom...)
	for _, m := range w.keyMarks {
		o.marks[m] = true
	}
	return fs.relOrigin(o, ok)
}

// readKeyOrigin expresses the key of the entry read r, for a summary.
func (fs *funcState) readKeyOrigin(r *readSite) (from []int, marks []string, ok bool) {
	o, ok := readOrigin(r)
	return fs.relOrigin(o, ok)
}

// relOrigin expresses an origin in terms of the function's inputs: the
// parameters (and free variables, numbered as relPath numbers them) it
// derives from, and its marks. Not where it is a constant or unknown.
func (fs *funcState) relOrigin(o keyOrigin, ok bool) (from []int, marks []string, _ bool) {
	if !ok || o.constant() {
		return nil, nil, false
	}
	for i, p := range fs.fn.Params {
		if o.values[p] {
			from = append(from, i)
			if f, ok := onlyThroughField(o, p); ok {
				marks = append(marks, fieldMark(i, f))
			}
		}
	}
	for i, v := range fs.fn.FreeVars {
		if o.values[v] {
			from = append(from, -1-i)
		}
	}
	for m := range o.marks {
		marks = append(marks, m)
	}
	slices.Sort(marks)
	return from, marks, true
}

// mergeInts and mergeStrings add to a what b has that a lacks.
func mergeInts(a, b []int) []int {
	for _, x := range b {
		if !slices.Contains(a, x) {
			a = append(a, x)
		}
	}
	return a
}

func mergeStrings(a, b []string) []string {
	for _, x := range b {
		if !slices.Contains(a, x) {
			a = append(a, x)
		}
	}
	return a
}

package lockflow

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// drawn reports whether v is computed from a random draw (math/rand,
// crypto/rand) or a fresh unique id (uuid.New, xid.New): two racers
// filling a memo with it store different values, and the first one's
// caller keeps a value the memo no longer holds. The clock is not a draw:
// racers' times differ by the gap, and a mark stamped "now" by either
// means the same; nor is a name-based uuid (NewSHA1, NewMD5), a function
// of its input. The functions v is computed from are its origin's marks
// (otherentry.go), by name. Packages often wrap the draw in an id
// function of their own that fills a buffer from a random source and
// encodes it; such a function counts as a draw too.
func drawn(v ssa.Value) bool {
	return drawnWithin(v, maxDrawCalls)
}

// maxDrawCalls bounds how many of the package's own functions deep a
// draw is looked for.
const maxDrawCalls = 3

func drawnWithin(v ssa.Value, calls int) bool {
	o, _ := originOf(v) // what was followed before a give-up still counts
	for m := range o.marks {
		if fn, ok := strings.CutPrefix(m, "f:"); ok && randomSource(fn) {
			return true
		}
	}
	for x := range o.values {
		switch x := x.(type) {
		case *ssa.MakeSlice:
			if filledAtRandom(x) {
				return true
			}
		case *ssa.Alloc:
			if filledAtRandom(x) {
				return true
			}
		case *ssa.Call:
			if f := x.Call.StaticCallee(); f != nil && calls > 0 && returnsDrawn(f, calls-1) {
				return true
			}
		}
	}
	return false
}

// randomSource reports whether fn, a function or method named as its SSA
// value prints, draws at random or hands out a fresh id.
func randomSource(fn string) bool {
	fn = strings.TrimPrefix(strings.TrimPrefix(fn, "("), "*") // a method: (*math/rand.Rand).Int63
	for _, pkg := range []string{"math/rand.", "math/rand/v2.", "crypto/rand."} {
		if strings.HasPrefix(fn, pkg) {
			return true
		}
	}
	return freshID(fn)
}

// returnsDrawn reports whether every value f returns first is drawn; f is
// a function with a body (of the package, or generic code instantiated
// in it).
func returnsDrawn(f *ssa.Function, calls int) bool {
	return everyReturn(f, func(ret *ssa.Return) bool {
		return len(ret.Results) > 0 && drawnWithin(ret.Results[0], calls)
	})
}

// filledAtRandom reports whether the buffer buf (made by make or a local
// array) is handed, whole or sliced, to a read from a random source:
// rand.Read(buf), io.ReadFull(rand.Reader, buf), rand.Reader.Read(buf).
func filledAtRandom(buf ssa.Value) bool {
	views := []ssa.Value{buf}
	for _, ref := range *buf.Referrers() {
		if s, ok := ref.(*ssa.Slice); ok && s.X == buf {
			views = append(views, s)
		}
	}
	for _, view := range views {
		for _, ref := range *view.Referrers() {
			call, ok := ref.(ssa.CallInstruction)
			if !ok {
				continue
			}
			c := call.Common()
			if f := c.StaticCallee(); f != nil && randomSource(f.String()) {
				return true
			}
			// The source handed in beside the buffer, or the receiver
			// of an interface call.
			for _, a := range append([]ssa.Value{c.Value}, c.Args...) {
				if a == view {
					continue
				}
				if o, _ := originOf(a); readsRandomSource(o) {
					return true
				}
			}
		}
	}
	return false
}

// readsRandomSource reports whether an origin involves a package
// variable of a random package (crypto/rand.Reader).
func readsRandomSource(o keyOrigin) bool {
	for m := range o.marks {
		if g, ok := strings.CutPrefix(m, "g:"); ok && randomSource(g) {
			return true
		}
	}
	return false
}

// A helper's key is often a field of the object it stores (m[n.ID] = n),
// and a caller may hand it an object it has just made with a fresh id in
// that field (n.clone(), whose ID is newID()). The helper's summary
// marks a parameter its key reads only through one field with a field
// mark, so that the caller can tell such a fresh entry from the one it
// looked up.

const fieldMarkPrefix = "k:"

// fieldMark is the mark saying that a key reads parameter param only
// through field.
func fieldMark(param, field int) string {
	return fmt.Sprintf("%s%d.%d", fieldMarkPrefix, param, field)
}

// keyField returns the one field through which a key with marks reads
// parameter param, if there is one.
func keyField(marks []string, param int) (field int, ok bool) {
	prefix := fmt.Sprintf("%s%d.", fieldMarkPrefix, param)
	found := 0
	for _, m := range marks {
		if rest, has := strings.CutPrefix(m, prefix); has {
			f, err := strconv.Atoi(rest)
			if err != nil {
				return 0, false
			}
			field = f
			found++
		}
	}
	return field, found == 1
}

// withoutFieldMarks drops the field marks, which name a helper's own
// parameters and mean nothing in its callers.
func withoutFieldMarks(marks []string) []string {
	var kept []string
	for _, m := range marks {
		if !strings.HasPrefix(m, fieldMarkPrefix) {
			kept = append(kept, m)
		}
	}
	return kept
}

// onlyThroughField returns the field through which the origin o reads
// parameter p, when every value of o computed from p is that field's
// address.
func onlyThroughField(o keyOrigin, p *ssa.Parameter) (field int, ok bool) {
	field = -1
	for v := range o.values {
		instr, isInstr := v.(ssa.Instruction)
		if !isInstr {
			continue
		}
		for _, op := range instr.Operands(nil) {
			if *op != ssa.Value(p) {
				continue
			}
			fa, isField := v.(*ssa.FieldAddr)
			if !isField || field >= 0 && fa.Field != field {
				return 0, false
			}
			field = fa.Field
		}
	}
	if field < 0 || fieldSet(p, field) {
		return 0, false // the helper sets the field itself before keying by it
	}
	return field, true
}

// mergeKeyMarks merges the marks of two keys of one summarised write
// (the write stands for either), keeping of the field marks those that
// hold for both (a parameter either key reads is read only through the
// marked field by every key that reads it), and the fresh marks only if
// both keys have one.
func mergeKeyMarks(aFrom []int, aMarks []string, bFrom []int, bMarks []string) []string {
	holds := func(m string, from []int, marks []string) bool {
		var p, f int
		if _, err := fmt.Sscanf(m, fieldMarkPrefix+"%d.%d", &p, &f); err != nil {
			return false
		}
		if !slices.Contains(from, p) {
			return true
		}
		got, ok := keyField(marks, p)
		return ok && got == f
	}
	bothFresh := slices.ContainsFunc(aMarks, isFreshKeyMark) && slices.ContainsFunc(bMarks, isFreshKeyMark)
	merged := mergeStrings(aMarks, bMarks)
	kept := merged[:0:0]
	for _, m := range merged {
		switch {
		case strings.HasPrefix(m, fieldMarkPrefix) && !(holds(m, aFrom, aMarks) && holds(m, bFrom, bMarks)):
		case isFreshKeyMark(m) && !bothFresh:
		default:
			kept = append(kept, m)
		}
	}
	return kept
}

// fieldDrawn reports whether the field of the struct v points to holds a
// draw: v is a new struct whose field is set from one, or a result of a
// call of a function with a body every return of which is such a struct
// (directly, or through the package's own constructors).
func fieldDrawn(v ssa.Value, field int) bool {
	return !fieldSet(v, field) && fieldDrawnWithin(v, field, maxDrawCalls)
}

// fieldSet reports whether the caller sets field of the struct v points
// to itself (cp := n.clone(); cp.ID = n.ID), over what the constructor
// drew.
func fieldSet(v ssa.Value, field int) bool {
	refs := v.Referrers()
	if refs == nil {
		return false // a constant or a package-level value: no object made here
	}
	for _, ref := range *refs {
		fa, ok := ref.(*ssa.FieldAddr)
		if !ok || fa.Field != field {
			continue
		}
		for _, u := range *fa.Referrers() {
			if st, ok := u.(*ssa.Store); ok && st.Addr == ssa.Value(fa) {
				return true
			}
		}
	}
	return false
}

func fieldDrawnWithin(v ssa.Value, field, calls int) bool {
	result := 0
	if x, ok := v.(*ssa.Extract); ok {
		v, result = x.Tuple, x.Index
	}
	switch x := v.(type) {
	case *ssa.Alloc:
		return result == 0 && allocFieldDrawn(x, field)
	case *ssa.Call:
		f := x.Call.StaticCallee()
		return f != nil && calls > 0 && everyReturn(f, func(ret *ssa.Return) bool {
			return result < len(ret.Results) && fieldDrawnWithin(ret.Results[result], field, calls-1)
		})
	}
	return false
}

// allocFieldDrawn reports whether every store into field of the new
// struct a is a draw, and there is one.
func allocFieldDrawn(a *ssa.Alloc, field int) bool {
	stores := 0
	for _, ref := range *a.Referrers() {
		fa, ok := ref.(*ssa.FieldAddr)
		if !ok || fa.Field != field {
			continue
		}
		for _, u := range *fa.Referrers() {
			st, ok := u.(*ssa.Store)
			if !ok || st.Addr != ssa.Value(fa) {
				continue
			}
			if !drawn(st.Val) {
				return false
			}
			stores++
		}
	}
	return stores > 0
}

// idGenerators are the packages whose New functions hand out a fresh
// unique id at each call, by import path without a major version suffix.
var idGenerators = map[string]bool{
	"github.com/google/uuid":         true,
	"github.com/gofrs/uuid":          true,
	"github.com/satori/go.uuid":      true,
	"github.com/rs/xid":              true,
	"github.com/oklog/ulid":          true,
	"github.com/segmentio/ksuid":     true,
	"github.com/lithammer/shortuuid": true,
}

// freshID reports whether fn, a function or method named as its SSA
// value prints (without the leading "(*"), draws a fresh id: New,
// NewString, NewRandom, NewV1/4/6/7, Make or MustNew of an id generator.
func freshID(fn string) bool {
	dot := strings.LastIndex(fn, ".")
	if dot < 0 {
		return false
	}
	pkg, name := fn[:dot], fn[dot+1:]
	if strings.HasSuffix(pkg, ")") { // a method: pkg.Type)
		if dot = strings.LastIndex(pkg, "."); dot < 0 {
			return false
		}
		pkg = pkg[:dot]
	}
	if i := strings.LastIndex(pkg, "/v"); i > 0 && strings.Trim(pkg[i+2:], "0123456789") == "" {
		pkg = pkg[:i]
	}
	if !idGenerators[pkg] {
		return false
	}
	switch name {
	case "New", "NewString", "NewRandom", "NewRandomFromReader", "NewUUID", "NewV1", "NewV4", "NewV6", "NewV7", "Make", "MustNew":
		return true
	}
	return false
}

// freshKeyMark marks the key of an entry a call adds under a fresh id:
// unique to the call, it shares nothing with any other key.
func freshKeyMark(call ssa.CallInstruction) string {
	return fmt.Sprintf("%s%d", freshMarkPrefix, call.Pos())
}

const freshMarkPrefix = "d:"

func isFreshKeyMark(m string) bool { return strings.HasPrefix(m, freshMarkPrefix) }

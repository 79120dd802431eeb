package syncmap

import "sync"

// A cache of conversion verdicts between named types. What a miss
// stores is either a verdict worked out from the types (which two racers
// may work out differently once a rule is registered in between) or,
// for the dynamic type, the same constant verdict whoever stores it.

type convKind int

const (
	convSafe convKind = iota
	convUnsafe
)

type verdict struct {
	kind  convKind
	notes []string
}

var verdicts registry[string, verdict]

var plainVerdicts sync.Map // string -> verdict

// Verdict stores a literal of constants for the dynamic type: every racer
// stores an equal verdict, and nothing a racer stored is lost. Only the
// worked-out verdict is reported.
func Verdict(from string, work func() (convKind, []string)) (convKind, []string) {
	if v, ok := verdicts.Load(from); ok {
		return v.kind, v.notes
	}
	if from == "dynamic" {
		verdicts.Store(from, verdict{convUnsafe, nil})
		return convUnsafe, nil
	}
	kind, notes := work()
	verdicts.Store(from, verdict{kind, notes}) // want `verdicts.Store stores what verdicts.Load found missing`
	return kind, notes
}

// PlainVerdict is Verdict over a sync.Map, with the literal's fields
// named and the zero ones left out.
func PlainVerdict(from string, work func() (convKind, []string)) (convKind, []string) {
	if v, ok := plainVerdicts.Load(from); ok {
		return v.(verdict).kind, v.(verdict).notes
	}
	if from == "dynamic" {
		plainVerdicts.Store(from, verdict{kind: convUnsafe})
		return convUnsafe, nil
	}
	kind, notes := work()
	plainVerdicts.Store(from, verdict{kind, notes}) // want `plainVerdicts.Store stores what plainVerdicts.Load found missing`
	return kind, notes
}

// Pending stores a literal one of whose fields is the caller's own slice:
// racers store different verdicts. Reported.
func Pending(from string, notes []string) {
	if _, ok := plainVerdicts.Load(from); ok {
		return
	}
	plainVerdicts.Store(from, verdict{convSafe, notes}) // want `plainVerdicts.Store stores what plainVerdicts.Load found missing`
}

// Reused fills a variable declared before the lookup, and sets a field
// again after the literal: no literal of constants. Reported.
func Reused(from string, strict bool) {
	v := verdict{kind: convSafe}
	if _, ok := plainVerdicts.Load(from); ok {
		return
	}
	if strict {
		v.kind = convUnsafe
	}
	plainVerdicts.Store(from, v) // want `plainVerdicts.Store stores what plainVerdicts.Load found missing`
}

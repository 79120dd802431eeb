package syncmap

import (
	"slices"
	"sync"
)

// Roster keeps its members by team in a sync.Map and all of them in a
// sorted plain slice. Every method that changes the teams also changes
// that slice with no lock held, so two of them never run at once on one
// roster (the race detector would say so): its owner serialises them, and
// what Add read of a team is still there when it stores.
type Roster struct {
	byTeam sync.Map // team -> []string
	sorted []string
}

func (r *Roster) team(t string) ([]string, bool) {
	v, ok := r.byTeam.Load(t)
	if !ok {
		return nil, false
	}
	ids, ok := v.([]string)
	return ids, ok
}

func (r *Roster) Add(t, id string) {
	if ids, ok := r.team(t); ok {
		r.byTeam.Store(t, append(ids, id))
	} else {
		r.byTeam.Store(t, []string{id})
	}
	r.sorted = append(r.sorted, id)
	slices.Sort(r.sorted)
}

func (r *Roster) Remove(t, id string) {
	ids, _ := r.team(t)
	r.byTeam.Store(t, slices.DeleteFunc(slices.Clone(ids), func(x string) bool { return x == id }))
	if i, found := slices.BinarySearch(r.sorted, id); found {
		r.sorted = slices.Delete(r.sorted, i, i+1)
	}
}

// Board's Leave changes only the teams: it may run beside Join, which
// can then store a team it read before Leave changed it.
type Board struct {
	byTeam sync.Map // team -> []string
	sorted []string
}

func (b *Board) team(t string) ([]string, bool) {
	v, ok := b.byTeam.Load(t)
	if !ok {
		return nil, false
	}
	ids, ok := v.([]string)
	return ids, ok
}

func (b *Board) Join(t, id string) {
	if ids, ok := b.team(t); ok {
		b.byTeam.Store(t, append(ids, id)) // want `b.byTeam.Store writes a value derived from b.team`
	} else {
		b.byTeam.Store(t, []string{id}) // want `b.byTeam.Store stores what b.team found missing`
	}
	b.sorted = append(b.sorted, id)
	slices.Sort(b.sorted)
}

func (b *Board) Leave(t, id string) {
	ids, _ := b.team(t)
	b.byTeam.Store(t, slices.DeleteFunc(slices.Clone(ids), func(x string) bool { return x == id })) // want `b.byTeam.Store writes a value derived from b.team`
}

// Package query serves lookups, each with a Reachability of its own.
package query

import "freshentries/reach"

func Lookup(def *reach.Definition, rel, target string) ([]string, bool) {
	r := def.Reachability()
	from := r.Entrypoints(rel) // want `\(\*freshentries/reach.Reachability\).Entrypoints fresh` `\(\*freshentries/reach.Reachability\).Entrypoints locked`
	return from, r.Reaches(rel, target) // want `\(\*freshentries/reach.Reachability\).Reaches fresh` `\(\*freshentries/reach.Reachability\).Reaches locked`
}

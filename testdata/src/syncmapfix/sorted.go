package syncmapfix

import (
	"reflect"
	"sort"
	"sync"
)

var sortedFields sync.Map // reflect.Type -> []string

// FieldNames builds the sorted field names of a struct type once per
// type. The slice is appended to and sorted before it is stored: it is
// only being built, so the caller can go on with the winner's instead.
func FieldNames(t reflect.Type) []string {
	if v, ok := sortedFields.Load(t); ok {
		return v.([]string)
	}
	names := make([]string, 0, t.NumField())
	for i := range t.NumField() {
		names = append(names, t.Field(i).Name)
	}
	sort.Slice(names, func(i, j int) bool { return names[i] < names[j] })
	sortedFields.Store(t, names) // want `sortedFields.Store stores what sortedFields.Load found missing`
	return names
}

var tagsBySelector sync.Map // string -> []string

// Tags lists, sorted, the tags that start with prefix; sort.Strings only
// reorders the slice being built.
func Tags(prefix string, all []string) []string {
	if v, ok := tagsBySelector.Load(prefix); ok {
		return v.([]string)
	}
	var tags []string
	for _, t := range all {
		if len(t) >= len(prefix) && t[:len(prefix)] == prefix {
			tags = append(tags, t)
		}
	}
	sort.Strings(tags)
	tagsBySelector.Store(prefix, tags) // want `tagsBySelector.Store stores what tagsBySelector.Load found missing`
	return tags
}

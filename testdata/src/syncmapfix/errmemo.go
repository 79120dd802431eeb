package syncmapfix

import (
	"errors"
	"reflect"
	"sync"
)

// layouts memoises, per struct type, either the layout worked out for it
// or the error that came instead, in one variable of type any.
var layouts sync.Map // reflect.Type -> map[string]int or error

var errNotStruct = errors.New("not a struct")

// Layout keeps what a racer stored first: the variable the memo was read
// into is set again to the entry kept, and asked which it holds after.
func Layout(t reflect.Type) (map[string]int, error) {
	x, ok := layouts.Load(t)
	if !ok {
		if t.Kind() != reflect.Struct {
			x = errNotStruct
		} else {
			m := map[string]int{}
			for i := range t.NumField() {
				m[t.Field(i).Name] = i
			}
			x = m
		}
		layouts.Store(t, x) // want `layouts.Store stores what layouts.Load found missing, .*keep the value it returns`
	}
	if err, ok := x.(error); ok {
		return nil, err
	}
	return x.(map[string]int), nil
}

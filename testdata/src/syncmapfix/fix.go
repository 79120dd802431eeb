// Package syncmapfix holds sync.Map fills whose Store can become a
// LoadOrStore that keeps the entry a racer stored first.
package syncmapfix

import (
	"net"
	"sync"
	"text/template"
)

type Templates struct {
	parsed sync.Map // name -> *template.Template
}

// Get parses each template once; the fix keeps the first one stored and
// returns it.
func (t *Templates) Get(name, text string) (*template.Template, error) {
	if tpl, ok := t.parsed.Load(name); ok {
		return tpl.(*template.Template), nil
	}
	tpl, err := template.New(name).Parse(text)
	if err != nil {
		return nil, err
	}
	t.parsed.Store(name, tpl) // want `t.parsed.Store stores what t.parsed.Load found missing, .*use t.parsed.LoadOrStore and keep the value it returns`
	return tpl, nil
}

var pools sync.Map // addr -> *connPool

type connPool struct {
	idle chan net.Conn
}

// Pool keeps one pool per address; the value kept is a pointer to it.
func Pool(addr string) *connPool {
	if p, ok := pools.Load(addr); ok {
		return p.(*connPool)
	}
	p := &connPool{idle: make(chan net.Conn, 4)}
	pools.Store(addr, p) // want `pools.Store stores what pools.Load found missing`
	return p
}

type Names struct {
	seen sync.Map // string -> any
}

// Remember keeps a value of interface type: the fix assigns it as is.
func (n *Names) Remember(k string, v any) any {
	if old, ok := n.seen.Load(k); ok {
		return old
	}
	n.seen.Store(k, v) // want `n.seen.Store stores what n.seen.Load found missing`
	return v
}

// typedMap is a generic wrapper over sync.Map, as many modules keep one:
// its LoadOrStore already hands back a V.
type typedMap[K comparable, V any] struct{ m sync.Map }

func (t *typedMap[K, V]) Load(k K) (v V, ok bool) {
	a, ok := t.m.Load(k)
	if ok {
		v = a.(V)
	}
	return v, ok
}

func (t *typedMap[K, V]) Store(k K, v V) { t.m.Store(k, v) }

func (t *typedMap[K, V]) LoadOrStore(k K, v V) (V, bool) {
	a, loaded := t.m.LoadOrStore(k, v)
	return a.(V), loaded
}

var listeners typedMap[string, *connPool]

// Listener goes through the wrapper: the diagnostic names the wrapper,
// not the sync.Map inside it, and the fix keeps the typed value without
// a type assertion (which would not compile).
func Listener(addr string) *connPool {
	if p, ok := listeners.Load(addr); ok {
		return p
	}
	p := &connPool{idle: make(chan net.Conn, 1)}
	listeners.Store(addr, p) // want `listeners.Store stores what listeners.Load found missing, .*; use listeners.LoadOrStore and keep`
	return p
}

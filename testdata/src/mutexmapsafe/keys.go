package mutexmapsafe

import (
	"sync"

	"mutexmaptypes"
)

// ObjectID is an alias: a key of type ObjectID is a mutexmaptypes.UID.
type ObjectID = mutexmaptypes.UID

type Name = string

// Watches keys by UID, stored and deleted under different spellings of
// the same type.
type Watches struct {
	byUID  sync.Map // mutexmaptypes.UID -> chan struct{}
	byName sync.Map // string -> int
}

func (w *Watches) Watch(meta mutexmaptypes.ObjectMeta) chan struct{} {
	ch := make(chan struct{})
	w.byUID.Store(meta.UID, ch)
	w.byName.Store(meta.Name, 1)
	return ch
}

func (w *Watches) Stop(id ObjectID) {
	if v, ok := w.byUID.LoadAndDelete(id); ok {
		close(v.(chan struct{}))
	}
}

func (w *Watches) Seen(n Name) bool {
	_, ok := w.byName.Load(n)
	return ok
}

func (w *Watches) Forget(meta *mutexmaptypes.ObjectMeta) {
	w.byName.Delete(meta.Name)
	w.byUID.Delete(meta.UID)
}

// Any stores keys whose dynamic type is not known here: nothing can be
// said about its lookups.
type Any struct{ m sync.Map }

func (a *Any) Put(k any, v int) { a.m.Store(k, v) }

func (a *Any) Drop(k string) { a.m.Delete(k) }

// Both stores keys of two types and looks up either.
type Both struct{ m sync.Map }

func (b *Both) PutName(n string)                { b.m.Store(n, true) }
func (b *Both) PutUID(u mutexmaptypes.UID)      { b.m.Store(u, true) }
func (b *Both) HasUID(u mutexmaptypes.UID) bool { _, ok := b.m.Load(u); return ok }
func (b *Both) DropName(n string)               { b.m.Delete(n) }

// Handed passes its map to code that may store any key.
type Handed struct{ m sync.Map }

func fill(m *sync.Map) { m.Store(42, "x") }

func (h *Handed) Init()                 { fill(&h.m); h.m.Store("a", "b") }
func (h *Handed) Drop(k int)            { h.m.Delete(k) }
func (h *Handed) Get(k int) (any, bool) { return h.m.Load(k) }

// Registry is exported: other packages may store into it.
var Registry sync.Map

func Register(name string) { Registry.Store(name, struct{}{}) }
func Unregister(id int)    { Registry.Delete(id) }

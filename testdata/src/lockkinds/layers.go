package lockkinds

import "sync"

// A database of state layers: Update and Enable hold db.lock, so adds to
// the layer tree never overlap each other or a reset; the tree's own lock
// only keeps readers out while it changes. The tree's constructor resets
// it too, on a tree no one else has yet: that writer needs no lock.

type stateLayer interface {
	rootHash() string
	// update stacks a layer for root on this one.
	update(root string) stateLayer
}

type layerTree struct {
	lock   sync.RWMutex
	layers map[string]stateLayer
}

func newLayerTree(head stateLayer) *layerTree {
	t := new(layerTree)
	t.reset(head)
	return t
}

func (t *layerTree) reset(head stateLayer) {
	t.lock.Lock()
	defer t.lock.Unlock()
	t.layers = map[string]stateLayer{head.rootHash(): head}
}

func (t *layerTree) get(root string) stateLayer {
	t.lock.RLock()
	defer t.lock.RUnlock()
	return t.layers[root]
}

func (t *layerTree) add(root, parent string) bool {
	if t.get(root) != nil {
		return false
	}
	p := t.get(parent)
	if p == nil {
		return false
	}
	t.lock.Lock()
	defer t.lock.Unlock()
	t.layers[root] = p.update(root)
	return true
}

// Silent: every writer of the tree but its constructor holds db.lock.
type LayerDB struct {
	lock sync.Mutex
	tree *layerTree
}

func NewLayerDB(genesis stateLayer) *LayerDB {
	return &LayerDB{tree: newLayerTree(genesis)}
}

func (db *LayerDB) Update(root, parent string) bool {
	db.lock.Lock()
	defer db.lock.Unlock()
	return db.tree.add(root, parent)
}

func (db *LayerDB) Enable(root stateLayer) {
	db.lock.Lock()
	defer db.lock.Unlock()
	db.tree.reset(root)
}

// The same tree, except that Rewind resets it without the database's
// lock: a rewind between add's lookups and its insert is undone.
// Reported.
type journalTree struct {
	lock   sync.RWMutex
	layers map[string]stateLayer
}

func newJournalTree(head stateLayer) *journalTree {
	t := new(journalTree)
	t.reset(head)
	return t
}

func (t *journalTree) reset(head stateLayer) {
	t.lock.Lock()
	defer t.lock.Unlock()
	t.layers = map[string]stateLayer{head.rootHash(): head}
}

func (t *journalTree) get(root string) stateLayer {
	t.lock.RLock()
	defer t.lock.RUnlock()
	return t.layers[root]
}

func (t *journalTree) add(root, parent string) bool {
	if t.get(root) != nil {
		return false
	}
	p := t.get(parent)
	if p == nil {
		return false
	}
	t.lock.Lock() // want `t.lock is locked again for writing after RUnlock`
	defer t.lock.Unlock()
	t.layers[root] = p.update(root)
	return true
}

type JournalDB struct {
	lock sync.Mutex
	tree *journalTree
}

func NewJournalDB(genesis stateLayer) *JournalDB {
	return &JournalDB{tree: newJournalTree(genesis)}
}

func (db *JournalDB) Update(root, parent string) bool {
	db.lock.Lock()
	defer db.lock.Unlock()
	return db.tree.add(root, parent)
}

func (db *JournalDB) Rewind(root stateLayer) {
	db.tree.reset(root)
}

package servicedir

import (
	"errors"
	"sync"
)

// A table of open file handles, one per inode, shared by every open of
// it; each open gets an id of its own, released on close.

type Attrs struct{ Size int64 }

type Handle struct {
	id     uint64
	inode  uint64
	attrs  *Attrs
	opens  int
	locked bool
}

type HandleTable struct {
	sync.RWMutex
	byInode map[uint64]*Handle
	byID    map[uint64]uint64
	nextID  uint64
}

// Find answers whether the inode has a handle.
func (t *HandleTable) Find(inode uint64) (*Handle, bool) {
	t.RLock()
	defer t.RUnlock()
	h, ok := t.byInode[inode]
	return h, ok
}

// Acquire looks the inode's handle up again and creates it where it is
// missing; either way it mints the open's id.
func (t *HandleTable) Acquire(inode uint64, attrs *Attrs) (*Handle, uint64) {
	t.Lock()
	defer t.Unlock()
	t.nextID++
	id := t.nextID
	h, ok := t.byInode[inode]
	if !ok {
		h = &Handle{id: id, inode: inode, attrs: attrs}
		t.byInode[inode] = h
	}
	h.opens++
	t.byID[id] = inode
	return h, id
}

// Attach joins the inode's handle only if it is still there.
func (t *HandleTable) Attach(inode uint64) (*Handle, uint64) {
	t.Lock()
	defer t.Unlock()
	h, ok := t.byInode[inode]
	if !ok {
		return nil, 0
	}
	t.nextID++
	h.opens++
	t.byID[t.nextID] = inode
	return h, t.nextID
}

// Release drops an open; the last one removes the handle. An id it no
// longer knows is ignored.
func (t *HandleTable) Release(id uint64) {
	t.Lock()
	defer t.Unlock()
	inode, ok := t.byID[id]
	if !ok {
		return
	}
	delete(t.byID, id)
	h, ok := t.byInode[inode]
	if !ok {
		return
	}
	h.opens--
	if h.opens == 0 {
		delete(t.byInode, inode)
	}
}

type Mount struct {
	handles *HandleTable
	stat    func(inode uint64) (*Attrs, error)
	lock    func(h *Handle) bool
}

var errLocked = errors.New("locked by another mount")

// Open reuses the attributes of an open handle, or stats the inode; then
// Acquire decides afresh whether the handle is there, creating it if not,
// so the release on a failed lock acts on Acquire's finding, not on
// Find's.
func (m *Mount) Open(inode uint64, write bool) (*Handle, uint64, error) {
	var attrs *Attrs
	if h, found := m.handles.Find(inode); found {
		attrs = h.attrs
	} else {
		a, err := m.stat(inode)
		if err != nil {
			return nil, 0, err
		}
		attrs = a
	}
	h, id := m.handles.Acquire(inode, attrs)
	if write && !h.locked && !m.lock(h) {
		m.handles.Release(id)
		return nil, 0, errLocked
	}
	return h, id, nil
}

// Reopen attaches to the handle Find saw: if it was released in between,
// Attach gives up (and the release after a failed lock drops nothing)
// where the stat path would have made a handle.
func (m *Mount) Reopen(inode uint64, write bool) (*Handle, uint64, error) {
	var h *Handle
	var id uint64
	if _, found := m.handles.Find(inode); found {
		h, id = m.handles.Attach(inode) // want `m.handles.RWMutex is locked again for writing by m.handles.Attach after RUnlock: m.handles.Find\(inode\) was present under the read lock`
	} else {
		attrs, err := m.stat(inode)
		if err != nil {
			return nil, 0, err
		}
		h, id = m.handles.Acquire(inode, attrs)
	}
	if write && h != nil && !h.locked && !m.lock(h) {
		m.handles.Release(id) // want `m.handles.RWMutex is locked again for writing by m.handles.Release after RUnlock: m.handles.Find\(inode\) was present`
		return nil, 0, errLocked
	}
	return h, id, nil
}

// OpenSibling creates the parent's handle in between, not the inode's:
// Find's finding about the inode still decides the release.
func (m *Mount) OpenSibling(inode, parent uint64, write bool) (*Handle, uint64, error) {
	var attrs *Attrs
	if h, found := m.handles.Find(inode); found {
		attrs = h.attrs
	} else {
		a, err := m.stat(inode)
		if err != nil {
			return nil, 0, err
		}
		attrs = a
	}
	h, id := m.handles.Acquire(parent, attrs)
	if write && !h.locked && !m.lock(h) {
		m.handles.Release(id) // want `m.handles.RWMutex is locked again for writing by m.handles.Release after RUnlock: h was present under the read lock`
		return nil, 0, errLocked
	}
	return h, id, nil
}

// AcquireUnlessFull is Acquire, but where the inode has no handle and the
// table is full it makes none: on that way out the entry is still missing.
func (t *HandleTable) AcquireUnlessFull(inode uint64, attrs *Attrs, max int) (*Handle, uint64) {
	t.Lock()
	defer t.Unlock()
	h, ok := t.byInode[inode]
	if !ok {
		if len(t.byInode) >= max {
			return nil, 0
		}
		h = &Handle{inode: inode, attrs: attrs}
		t.byInode[inode] = h
	}
	t.nextID++
	h.opens++
	t.byID[t.nextID] = inode
	return h, t.nextID
}

var errFull = errors.New("too many open files")

// OpenBounded relies on AcquireUnlessFull, which need not create the
// handle Find saw if it went away: Find's answer still decides the
// release.
func (m *Mount) OpenBounded(inode uint64, write bool, max int) (*Handle, uint64, error) {
	var attrs *Attrs
	if h, found := m.handles.Find(inode); found {
		attrs = h.attrs
	} else {
		a, err := m.stat(inode)
		if err != nil {
			return nil, 0, err
		}
		attrs = a
	}
	h, id := m.handles.AcquireUnlessFull(inode, attrs, max)
	if h == nil {
		return nil, 0, errFull
	}
	if write && !h.locked && !m.lock(h) {
		m.handles.Release(id) // want `m.handles.RWMutex is locked again for writing by m.handles.Release after RUnlock: h was present under the read lock`
		return nil, 0, errLocked
	}
	return h, id, nil
}

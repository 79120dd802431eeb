package checkthenact

import (
	"errors"
	"sync"
	"time"
)

var errFolderNotEmpty = errors.New("folder not empty")

// Child is whatever a folder lists: a file or another folder.
type Child interface{ RemoveAll() error }

// Folder caches a remote directory's listing and refreshes it when old.
type Folder struct {
	mu       sync.Mutex
	children map[string]Child
	hidden   map[string]bool
	listedAt time.Time
	list     func() map[string]Child
}

// relist fetches the listing again once it is a second old; f.mu held.
func (f *Folder) relist() {
	if time.Since(f.listedAt) < time.Second {
		return
	}
	for name, c := range f.list() {
		f.children[name] = c
	}
	f.listedAt = time.Now()
}

func (f *Folder) Children() []Child {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.relist()
	out := make([]Child, 0, len(f.children))
	for _, c := range f.children {
		out = append(out, c)
	}
	return out
}

func (f *Folder) isEmpty() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.relist()
	return len(f.children) == 0
}

// Remove decides for itself: it refuses a folder that is not empty now.
func (f *Folder) Remove() error {
	if !f.isEmpty() {
		return errFolderNotEmpty
	}
	f.mu.Lock()
	for name := range f.hidden {
		delete(f.hidden, name)
	}
	f.mu.Unlock()
	return nil
}

// RemoveAll removes the children it listed, then the folder. The stale
// listing only says which children to remove first: Remove tests the
// folder again and refuses it if a child arrived meanwhile, and its
// relisting stores what the remote holds now. Silent.
func (f *Folder) RemoveAll() error {
	for _, c := range f.Children() {
		if err := c.RemoveAll(); err != nil {
			return err
		}
	}
	return f.Remove()
}

// Attach adds c unless the listing already held it; the listing is
// stale by the time it stores, so a racer's Attach of c is stored twice
// under two names.
func (f *Folder) Attach(name string, c Child) {
	for _, known := range f.Children() {
		if known == c {
			return
		}
	}
	f.mu.Lock() // want `f.mu is locked again after the section that checked`
	f.children[name] = c
	f.mu.Unlock()
}

func (f *Folder) put(name string, c Child) {
	f.mu.Lock()
	f.children[name] = c
	f.mu.Unlock()
}

// Adopt is Attach through a helper that stores: the search of the stale
// listing still decides the store.
func (f *Folder) Adopt(name string, c Child) bool {
	for _, known := range f.Children() {
		if known == c {
			return false
		}
	}
	f.put(name, c) // want `f.mu is locked again by f.put after the section that checked`
	return true
}

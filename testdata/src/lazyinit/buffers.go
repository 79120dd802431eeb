package lazyinit

import (
	"fmt"
	"sync"
)

// An editor's open buffers. Type and Insert check that a buffer is open
// (opening it if not), then edit it in a second section, which looks the
// buffer up again and gives up when it was closed in between. Type's edit
// fails with an error the caller hears of: the stale "it is open" is
// caught and reported, nothing is lost in silence. Insert's edit gives up
// without a word.
type textBuffer struct {
	text    string
	version int
}

type Editor struct {
	mu      sync.RWMutex
	buffers map[string]*textBuffer
}

func (e *Editor) HasBuffer(path string) bool {
	e.mu.RLock()
	defer e.mu.RUnlock()
	_, ok := e.buffers[path]
	return ok
}

func (e *Editor) Open(path, text string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if _, ok := e.buffers[path]; !ok {
		e.buffers[path] = &textBuffer{text: text}
	}
}

func (e *Editor) Close(path string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	delete(e.buffers, path)
}

// Edit appends text to an open buffer, or fails.
func (e *Editor) Edit(path, text string) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.editLocked(path, text)
}

func (e *Editor) editLocked(path, text string) error {
	buf, ok := e.buffers[path]
	if !ok {
		return fmt.Errorf("unknown buffer %q", path)
	}
	e.buffers[path] = &textBuffer{text: buf.text + text, version: buf.version + 1}
	return nil
}

// append appends text to an open buffer, if there is one.
func (e *Editor) append(path, text string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	buf, ok := e.buffers[path]
	if !ok {
		return
	}
	e.buffers[path] = &textBuffer{text: buf.text + text, version: buf.version + 1}
}

func (e *Editor) Type(path, text string) error {
	if !e.HasBuffer(path) {
		e.Open(path, text)
		return nil
	}
	return e.Edit(path, text)
}

func (e *Editor) Insert(path, text string) {
	if !e.HasBuffer(path) {
		e.Open(path, text)
		return
	}
	e.append(path, text) // want `e.mu is locked again for writing by e.append after RUnlock: e.HasBuffer\(path\) was present under the read lock; if it is removed before the lock is taken again, the re-check there gives up quietly`
}

// TypeInline re-checks in its own second section and fails aloud.
func (e *Editor) TypeInline(path, text string) error {
	if !e.HasBuffer(path) {
		e.Open(path, text)
		return nil
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	buf, ok := e.buffers[path]
	if !ok {
		return fmt.Errorf("buffer %q closed", path)
	}
	e.buffers[path] = &textBuffer{text: buf.text + text, version: buf.version + 1}
	return nil
}

// TypeIgnoring drops Edit's error: the edit is lost in silence after all.
func (e *Editor) TypeIgnoring(path, text string) {
	if !e.HasBuffer(path) {
		e.Open(path, text)
		return
	}
	_ = e.Edit(path, text) // want `e.mu is locked again for writing by e.Edit after RUnlock: e.HasBuffer\(path\) was present under the read lock; if it is removed before the lock is taken again, the re-check there gives up quietly`
}

// appendOrNil has an error result but gives up with nil when the buffer
// is gone: the caller hears nothing.
func (e *Editor) appendOrNil(path, text string) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	buf, ok := e.buffers[path]
	if !ok {
		return nil
	}
	e.buffers[path] = &textBuffer{text: buf.text + text, version: buf.version + 1}
	return nil
}

func (e *Editor) TypeQuietly(path, text string) error {
	if !e.HasBuffer(path) {
		e.Open(path, text)
		return nil
	}
	return e.appendOrNil(path, text) // want `e.mu is locked again for writing by e.appendOrNil after RUnlock: e.HasBuffer\(path\) was present under the read lock; if it is removed before the lock is taken again, the re-check there gives up quietly`
}

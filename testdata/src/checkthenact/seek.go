package checkthenact

import (
	"errors"
	"sync"
)

// Cursor is a read position that several readers advance.
type Cursor struct {
	mu     sync.Mutex
	offset int64
	bounds func() (int64, int64, error) // asks the server: slow
}

// SeekTo moves to an absolute position; the stale "already there" test
// only skips a store of the same value, and the value stored is the
// caller's. Silent.
func (c *Cursor) SeekTo(off int64) (int64, error) {
	c.mu.Lock()
	same := off == c.offset
	c.mu.Unlock()
	if same {
		return off, nil
	}
	first, last, err := c.bounds()
	if err != nil {
		return 0, err
	}
	if off < first || off > last {
		return 0, errors.New("out of range")
	}
	c.mu.Lock()
	c.offset = off
	c.mu.Unlock()
	return off, nil
}

// Seek also moves relative to the current position, read in an earlier
// section: a reader's advance in between is undone. The report names the
// relative read, not the absolute path's harmless test.
func (c *Cursor) Seek(off int64, relative bool) (int64, error) {
	if !relative {
		c.mu.Lock()
		same := off == c.offset
		c.mu.Unlock()
		if same {
			return off, nil
		}
	} else {
		c.mu.Lock()
		off = c.offset + off
		c.mu.Unlock()
	}
	first, last, err := c.bounds()
	if err != nil {
		return 0, err
	}
	if off < first || off > last {
		return 0, errors.New("out of range")
	}
	c.mu.Lock() // want `c.mu is locked again after the section that checked: the value written derives from c.offset, read in an earlier section; an update made in between is lost`
	c.offset = off
	c.mu.Unlock()
	return off, nil
}

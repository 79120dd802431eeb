package lostupdate

import (
	"errors"
	"sync"
	"time"
)

// A dialer's cache of TLS settings per backend. A handshake that fails
// with settings the cache handed out marks the entry failed, so the next
// dial fetches new ones; a refresh in between may have replaced the
// settings already, and then the failure says nothing about the entry.
type tlsSettings struct{ serverName string }

type settingsEntry struct {
	settings  *tlsSettings
	err       error
	ready     chan struct{}
	refreshed time.Time
}

type SettingsCache struct {
	mu      sync.RWMutex
	entries map[string]settingsEntry
}

var errSettingsRejected = errors.New("settings rejected by the handshake")

// Invalidate looks under the read lock first, the common case being that
// a refresh has already replaced the settings; under the write lock it
// copies the entry out again and tests it against the same settings
// before replacing it: double-checked, silent.
func (c *SettingsCache) Invalidate(used *tlsSettings, backend string) {
	c.mu.RLock()
	e := c.entries[backend]
	c.mu.RUnlock()
	if e.settings != used {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e = c.entries[backend]
	if e.settings != used {
		return
	}
	c.entries[backend] = settingsEntry{err: errSettingsRejected, ready: e.ready, refreshed: e.refreshed}
}

// InvalidateFresh writes the same test the other way round, and leaves
// by an early return inside the section: silent too.
func (c *SettingsCache) InvalidateFresh(used *tlsSettings, backend string) bool {
	c.mu.RLock()
	e := c.entries[backend]
	c.mu.RUnlock()
	if e.settings == used {
		c.mu.Lock()
		defer c.mu.Unlock()
		if cur := c.entries[backend]; cur.settings == used {
			c.entries[backend] = settingsEntry{err: errSettingsRejected, ready: cur.ready}
			return true
		}
	}
	return false
}

// InvalidateBlind tests only under the read lock: a refresh between the
// sections is overwritten with the failure of settings no longer in use.
func (c *SettingsCache) InvalidateBlind(used *tlsSettings, backend string) {
	c.mu.RLock()
	e := c.entries[backend]
	c.mu.RUnlock()
	if e.settings != used {
		return
	}
	c.mu.Lock() // want `c.mu is locked again for writing after RUnlock`
	defer c.mu.Unlock()
	c.entries[backend] = settingsEntry{err: errSettingsRejected, ready: e.ready}
}

// InvalidateFromFirstCopy re-tests the settings, but builds the failed
// entry from the first copy: a refresh that kept the settings and made a
// new ready channel loses it.
func (c *SettingsCache) InvalidateFromFirstCopy(used *tlsSettings, backend string) {
	c.mu.RLock()
	old := c.entries[backend]
	c.mu.RUnlock()
	if old.settings != used {
		return
	}
	c.mu.Lock() // want `c.mu is locked again for writing after RUnlock`
	defer c.mu.Unlock()
	if cur := c.entries[backend]; cur.settings != used {
		return
	}
	c.entries[backend] = settingsEntry{err: errSettingsRejected, ready: old.ready, refreshed: old.refreshed}
}

// InvalidateOther re-tests against the settings of another backend than
// the one it replaces: no re-check of what it read.
func (c *SettingsCache) InvalidateOther(used *tlsSettings, backend, fallback string) {
	c.mu.RLock()
	e := c.entries[backend]
	c.mu.RUnlock()
	if e.settings != used {
		return
	}
	c.mu.Lock() // want `c.mu is locked again for writing after RUnlock`
	defer c.mu.Unlock()
	if cur := c.entries[fallback]; cur.settings != used {
		return
	}
	c.entries[backend] = settingsEntry{err: errSettingsRejected}
}

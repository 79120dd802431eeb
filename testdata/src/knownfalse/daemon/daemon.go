// Package daemon restores containers when it starts. Restore clears the
// paused flag it read in an earlier section: known false in its program,
// where in the gap the flag can only go from true to false (a resume or
// an exit event) and this section stores false as well (what the values
// mean); Pause cannot run before the daemon serves.
package daemon

import "sync"

type Container struct {
	mu      sync.Mutex
	paused  bool
	running bool
}

func (c *Container) Pause() {
	c.mu.Lock()
	c.paused = true
	c.mu.Unlock()
}

func (c *Container) Resumed() {
	c.mu.Lock()
	c.paused = false
	c.mu.Unlock()
}

func (c *Container) Restore(resume func() error) error {
	c.mu.Lock()
	paused := c.paused
	c.mu.Unlock()
	if !paused {
		return nil
	}
	if err := resume(); err != nil {
		return err
	}
	c.mu.Lock() // want `c.mu is locked again after the section that checked: the write is decided by paused`
	c.paused = false
	c.running = true
	c.mu.Unlock()
	return nil
}

// Package caddy stands in for caddy v1 as CoreDNS forks it: setup
// functions get a Controller whose instance storage they share.
package caddy

import "sync"

type Instance struct {
	StorageMu sync.RWMutex
	Storage   map[any]any
	onStartup []func() error
}

type Controller struct {
	instance *Instance
	Key      string
}

// Get reads a value from the instance's storage.
func (c *Controller) Get(key any) any {
	c.instance.StorageMu.RLock()
	defer c.instance.StorageMu.RUnlock()
	return c.instance.Storage[key]
}

// Set stores a value in the instance's storage.
func (c *Controller) Set(key, val any) {
	c.instance.StorageMu.Lock()
	c.instance.Storage[key] = val
	c.instance.StorageMu.Unlock()
}

// OnStartup adds fn to the functions run once the instance has started.
func (c *Controller) OnStartup(fn func() error) {
	c.instance.onStartup = append(c.instance.onStartup, fn)
}

// SetupFunc configures a directive from its tokens.
type SetupFunc func(c *Controller) error

// RegisterPlugin makes a directive's setup known.
func RegisterPlugin(name string, setup SetupFunc) {}

// Package dnsplugin is a CoreDNS-style plugin. caddy runs the setup
// functions of an instance's directives one after another, and the
// instance storage their Controller reaches is theirs: a get-or-create
// on it in setup code cannot be raced.
package dnsplugin

import (
	"time"

	"github.com/coredns/caddy"
)

func init() {
	caddy.RegisterPlugin("cache", setupCache)
	caddy.RegisterPlugin("reload", setupReload)
}

type cacheKey struct{}

type shared struct{ entries map[string]string }

// sharedFor gives every server block of the instance one cache. Silent.
func sharedFor(c *caddy.Controller) *shared {
	if s, ok := c.Get(cacheKey{}).(*shared); ok {
		return s
	}
	s := &shared{entries: map[string]string{}}
	c.Set(cacheKey{}, s)
	return s
}

func setupCache(c *caddy.Controller) error {
	s := sharedFor(c)
	_ = s
	return nil
}

type reloadKey struct{}

type reloader struct{ last time.Time }

// reloaderFor is also called from a goroutine the startup hook starts,
// which runs beside the setup of the next instance's directives.
// Reported.
func reloaderFor(c *caddy.Controller) *reloader {
	if r, ok := c.Get(reloadKey{}).(*reloader); ok {
		return r
	}
	r := &reloader{last: time.Now()}
	c.Set(reloadKey{}, r) // want `c.instance.StorageMu is locked again for writing by c.Set after RUnlock`
	return r
}

func setupReload(c *caddy.Controller) error {
	reloaderFor(c)
	c.OnStartup(func() error {
		go func() {
			for range time.Tick(time.Minute) {
				reloaderFor(c).last = time.Now()
			}
		}()
		return nil
	})
	return nil
}

package syncmap

import (
	"strings"
	"sync"

	"golang.org/x/sync/singleflight"
)

type manifest struct {
	name   string
	layers []string
}

func fetchManifest(name string) (*manifest, error) {
	return &manifest{name: name, layers: strings.Split(name, "/")}, nil
}

// fetched pairs a manifest with the time-to-live its registry gave.
type fetched struct {
	m   *manifest
	ttl int
}

// manifests fetches each manifest once for all the callers that miss it
// at the same time: the group hands every caller of one flight the same
// result, so they all store the same manifest under its name.
type manifests struct {
	loaded sync.Map // name -> *manifest
	group  singleflight.Group
}

// Get stores the flight's result under the key the flight ran for.
// Silent: racers of one flight store the same value, and a later flight's
// store is a fresher fetch of the same manifest.
func (c *manifests) Get(name string) (*manifest, error) {
	if v, ok := c.loaded.Load(name); ok {
		return v.(*manifest), nil
	}
	v, err, _ := c.group.Do(name, func() (any, error) {
		m, err := fetchManifest(name)
		if err != nil {
			return nil, err
		}
		return &fetched{m: m, ttl: 60}, nil
	})
	if err != nil {
		return nil, err
	}
	f, ok := v.(*fetched)
	if !ok {
		return nil, nil
	}
	c.loaded.Store(name, f.m)
	return f.m, nil
}

// Rebased stores what the flight returned, copied into a new manifest
// of its own: each racer stores a different object, and the one a racer
// returned is replaced.
func (c *manifests) Rebased(name, base string) (*manifest, error) {
	if v, ok := c.loaded.Load(name); ok {
		return v.(*manifest), nil
	}
	v, err, _ := c.group.Do(name, func() (any, error) {
		return fetchManifest(name)
	})
	if err != nil {
		return nil, err
	}
	m := &manifest{name: name, layers: append([]string{base}, v.(*manifest).layers...)}
	c.loaded.Store(name, m) // want `c.loaded.Store stores what c.loaded.Load found missing`
	return m, nil
}

// Alias runs the flight under one name and stores the result under
// another: two flights for different names race for the alias.
func (c *manifests) Alias(alias, name string) (*manifest, error) {
	if v, ok := c.loaded.Load(alias); ok {
		return v.(*manifest), nil
	}
	v, err, _ := c.group.Do(name, func() (any, error) {
		return fetchManifest(name)
	})
	if err != nil {
		return nil, err
	}
	c.loaded.Store(alias, v) // want `c.loaded.Store stores what c.loaded.Load found missing`
	return v.(*manifest), nil
}

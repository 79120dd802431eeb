// Package provisioners keeps the provisioners of a certificate authority
// by name. A Collection locks its maps, but its Update checks the entry in
// one section and replaces it in a second. Every call in the module either
// holds the authority's admin lock (the collection being served) or fills
// a collection its caller has just made, before publishing it: the gap
// cannot be raced. Update is exported; its callers are in another
// package, which only the driver sees, so Update and the writers it calls
// are marked for both conditions, and either drops the finding.
package provisioners

import (
	"errors"
	"sync"
)

type Provisioner struct {
	ID, Name string
}

type Collection struct {
	mu     sync.Mutex
	byID   map[string]*Provisioner
	byName map[string]*Provisioner
}

// New is the constructor: a collection no one else has seen.
func New() *Collection {
	return &Collection{byID: make(map[string]*Provisioner), byName: make(map[string]*Provisioner)}
}

func (c *Collection) Store(p *Provisioner) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.byName[p.Name]; ok {
		return errors.New("duplicate provisioner name")
	}
	c.byID[p.ID], c.byName[p.Name] = p, p
	return nil
}

func (c *Collection) Remove(id string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	p, ok := c.byID[id]
	if !ok {
		return errors.New("no such provisioner")
	}
	delete(c.byID, id)
	delete(c.byName, p.Name)
	return nil
}

// Update replaces the provisioner of nu's id, keeping names unique.
func (c *Collection) Update(nu *Provisioner) error {
	c.mu.Lock()
	old, ok := c.byID[nu.ID]
	taken := c.byName[nu.Name]
	c.mu.Unlock()
	if !ok {
		return errors.New("no such provisioner")
	}
	if taken != nil && taken.ID != nu.ID {
		return errors.New("name taken")
	}
	c.mu.Lock() // want `c.mu is locked again after the section that checked`
	delete(c.byName, old.Name)
	c.byID[nu.ID], c.byName[nu.Name] = nu, nu
	c.mu.Unlock()
	return nil
}

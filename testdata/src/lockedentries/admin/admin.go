// Package admin serves the provisioner API of an authority. Every change
// to the served collection is made under the authority's admin lock; a
// reload fills a new collection before swapping it in.
package admin

import (
	"sync"

	"lockedentries/provisioners"
)

type Authority struct {
	adminMu      sync.Mutex
	provisioners *provisioners.Collection
}

func (a *Authority) AddProvisioner(p *provisioners.Provisioner) error {
	a.adminMu.Lock()
	defer a.adminMu.Unlock()
	return a.provisioners.Store(p) // want `\(\*lockedentries/provisioners.Collection\).Store locked`
}

func (a *Authority) UpdateProvisioner(p *provisioners.Provisioner) error {
	a.adminMu.Lock()
	defer a.adminMu.Unlock()
	return a.provisioners.Update(p) // want `\(\*lockedentries/provisioners.Collection\).Update locked` `\(\*lockedentries/provisioners.Collection\).Update other fresh`
}

func (a *Authority) RemoveProvisioner(id string) error {
	a.adminMu.Lock()
	defer a.adminMu.Unlock()
	return a.provisioners.Remove(id) // want `\(\*lockedentries/provisioners.Collection\).Remove locked`
}

// Reload builds the collection from the stored list, then swaps it in.
func (a *Authority) Reload(list []*provisioners.Provisioner) error {
	c := provisioners.New()
	for _, p := range list {
		if err := c.Store(p); err != nil {
			return err
		}
	}
	a.adminMu.Lock()
	a.provisioners = c
	a.adminMu.Unlock()
	return nil
}

package checkthenact

import (
	"errors"
	"sync"
)

// A network driver records its networks. create checks a snapshot of
// them for the parent interface, then adds the network in a section of
// its own: two creates on one parent both pass (reported). CreateNetwork
// then removes the network again if persisting it fails: that removal,
// decided by what create answered, only undoes create's own insert.
// Silent.

var errParentInUse = errors.New("parent interface in use")

type vlanNetwork struct{ id, parent string }

type vlanDriver struct {
	mu       sync.Mutex
	networks map[string]*vlanNetwork
}

func (d *vlanDriver) list() []*vlanNetwork {
	d.mu.Lock()
	defer d.mu.Unlock()
	out := make([]*vlanNetwork, 0, len(d.networks))
	for _, n := range d.networks {
		out = append(out, n)
	}
	return out
}

func (d *vlanDriver) add(n *vlanNetwork) {
	d.mu.Lock()
	d.networks[n.id] = n
	d.mu.Unlock()
}

func (d *vlanDriver) remove(id string) {
	d.mu.Lock()
	delete(d.networks, id)
	d.mu.Unlock()
}

func (d *vlanDriver) create(id, parent string) (existed bool, err error) {
	for _, n := range d.list() {
		if n.parent == parent {
			if n.id != id {
				return false, errParentInUse
			}
			return true, nil
		}
	}
	d.add(&vlanNetwork{id: id, parent: parent}) // want `d.mu is locked again by d.add after the section that checked`
	return false, nil
}

func (d *vlanDriver) CreateNetwork(id, parent string, persist func(string) error) error {
	existed, err := d.create(id, parent)
	if err != nil {
		return err
	}
	if existed {
		return nil
	}
	if err := persist(id); err != nil {
		d.remove(id)
		return err
	}
	return nil
}

package syncmap

import (
	"errors"
	"sync"
)

type product struct {
	id, name, sku string
}

// Catalog finds its products by id, by name and by SKU.
type Catalog struct {
	byID   sync.Map
	byName sync.Map
	bySKU  sync.Map
}

func (c *Catalog) Load(id string) (*product, bool) {
	v, ok := c.byID.Load(id)
	if !ok {
		return nil, false
	}
	return v.(*product), true
}

func (c *Catalog) LoadByName(name string) (*product, bool) {
	v, ok := c.byName.Load(name)
	if !ok {
		return nil, false
	}
	return v.(*product), true
}

func (c *Catalog) LoadBySKU(sku string) (*product, bool) {
	v, ok := c.bySKU.Load(sku)
	if !ok {
		return nil, false
	}
	return v.(*product), true
}

func (c *Catalog) Store(p *product) {
	c.byID.Store(p.id, p)
	c.byName.Store(p.name, p)
	c.bySKU.Store(p.sku, p)
}

func (c *Catalog) Remove(id string) {
	p, ok := c.Load(id)
	if !ok {
		return
	}
	c.byID.Delete(id)
	c.byName.Delete(p.name)
	c.bySKU.Delete(p.sku)
}

var errTaken = errors.New("catalog: name or SKU taken")

// Update checks that the new name and SKU are free, each in its own
// lookup, then removes the old product and stores the new one. Both
// lookups decide the one removal: it is reported once, pointing at both.
func (c *Catalog) Update(p *product) error {
	old, ok := c.Load(p.id)
	if !ok {
		return errors.New("catalog: no such product")
	}
	if old.name != p.name {
		if _, ok := c.LoadByName(p.name); ok {
			return errTaken
		}
	}
	if old.sku != p.sku {
		if _, ok := c.LoadBySKU(p.sku); ok {
			return errTaken
		}
	}
	c.Remove(old.id) // want `c.Remove is decided by c.LoadByName, read by an earlier call`
	c.Store(p)       // want `c.Store stores what c.LoadByName found missing`
	return nil
}

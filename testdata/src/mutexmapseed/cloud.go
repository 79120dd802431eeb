// Package mutexmapseed holds the seed's shapes: a cloud provider that
// serialises load-balancer reconciliation per service with a sync.Map of
// mutexes, and the ways its entries get removed.
package mutexmapseed

import (
	"context"
	"sync"

	"mutexmaptypes"
)

type LoadBalancer struct {
	Name string
	IP   string
}

type API interface {
	Ensure(ctx context.Context, name string, nodes []string) (*LoadBalancer, error)
	Remove(ctx context.Context, name string) error
}

type Cloud struct {
	api          API
	serviceLocks sync.Map // types.UID -> *sync.Mutex
}

// lockService is the seed: the returned closure unlocks, then drops the
// entry. A goroutine that found the entry before the Delete is waiting on
// the old mutex; the next caller stores a new one; both proceed.
func (c *Cloud) lockService(svc *mutexmaptypes.Service) func() {
	v, _ := c.serviceLocks.LoadOrStore(svc.UID, new(sync.Mutex))
	mu := v.(*sync.Mutex)
	mu.Lock()
	return func() {
		mu.Unlock()
		c.serviceLocks.Delete(svc.UID) // want `per-key mutex removed from c.serviceLocks by Delete while another goroutine may hold or wait on it: a waiter on the removed mutex and a newcomer that stores a fresh one for the same key both proceed; keep the entry .* reference-counted keyed lock`
	}
}

func (c *Cloud) EnsureLoadBalancer(ctx context.Context, svc *mutexmaptypes.Service, nodes []string) (*LoadBalancer, error) {
	unlock := c.lockService(svc)
	defer unlock()
	return c.api.Ensure(ctx, svc.Name, nodes)
}

func (c *Cloud) UpdateLoadBalancer(ctx context.Context, svc *mutexmaptypes.Service, nodes []string) error {
	unlock := c.lockService(svc)
	defer unlock()
	_, err := c.api.Ensure(ctx, svc.Name, nodes)
	return err
}

// EnsureLoadBalancerDeleted removes the balancer and forgets the
// service's mutex while still holding it: the delete comes before the
// unlock, which does not help — waiters already hold a pointer to it.
func (c *Cloud) EnsureLoadBalancerDeleted(ctx context.Context, svc *mutexmaptypes.Service) error {
	v, _ := c.serviceLocks.LoadOrStore(svc.UID, new(sync.Mutex))
	mu := v.(*sync.Mutex)
	mu.Lock()
	err := c.api.Remove(ctx, svc.Name)
	c.serviceLocks.Delete(svc.UID) // want `per-key mutex removed from c.serviceLocks by Delete while another goroutine may hold or wait on it`
	mu.Unlock()
	return err
}

// OnServiceDeleted is an informer's delete handler: it forgets the mutex
// of a service that is going away, while a reconcile of it may still be
// running or queued behind it.
func (c *Cloud) OnServiceDeleted(obj any) {
	svc, ok := obj.(*mutexmaptypes.Service)
	if !ok {
		return
	}
	c.serviceLocks.Delete(svc.UID) // want `per-key mutex removed from c.serviceLocks by Delete`
}

// NodeLocks hands out one mutex per node and takes it back with
// LoadAndDelete when the node leaves.
type NodeLocks struct {
	locks sync.Map // string -> *sync.Mutex
}

func (n *NodeLocks) Lock(name string) *sync.Mutex {
	v, _ := n.locks.LoadOrStore(name, &sync.Mutex{})
	mu := v.(*sync.Mutex)
	mu.Lock()
	return mu
}

func (n *NodeLocks) Forget(name string) {
	if v, ok := n.locks.LoadAndDelete(name); ok { // want `per-key mutex removed from n.locks by LoadAndDelete`
		_ = v.(*sync.Mutex)
	}
}

// StoredAsString is the seed as first reviewed: the key is stored as
// string(svc.UID) but deleted as svc.UID, so the Delete never removes
// anything (a leak). Converting the key would turn the leak into the
// split above, so the mismatch is reported without a conversion.
type StoredAsString struct {
	locks sync.Map
}

func (s *StoredAsString) lock(svc *mutexmaptypes.Service) func() {
	v, _ := s.locks.LoadOrStore(string(svc.UID), new(sync.Mutex))
	mu := v.(*sync.Mutex)
	mu.Lock()
	return func() {
		mu.Unlock()
		s.locks.Delete(svc.UID) // want `per-key mutex removed from s.locks by Delete` `key svc.UID has dynamic type mutexmaptypes.UID, but s.locks only stores keys of type string: this Delete never matches .*as written the mutex is never removed`
	}
}

func (s *StoredAsString) Reconcile(svc *mutexmaptypes.Service, work func()) {
	unlock := s.lock(svc)
	defer unlock()
	work()
}

// Reset replaces a node's mutex with a fresh one, "in case it is stuck":
// the holder of the old one and the next caller of Lock both proceed.
func (n *NodeLocks) Reset(name string) {
	n.locks.Swap(name, new(sync.Mutex)) // want `per-key mutex in n.locks replaced by Swap`
}

// Reinstall puts back the mutex it found (replacing nothing), and
// Restore stores a fresh one only when it looked and found none: the
// check and the store are two steps, so another caller's LoadOrStore can
// come in between and be replaced.
func (n *NodeLocks) Reinstall(name string) {
	if v, ok := n.locks.Load(name); ok {
		n.locks.Store(name, v)
	}
}

func (n *NodeLocks) Restore(name string) {
	if _, ok := n.locks.Load(name); !ok {
		n.locks.Store(name, new(sync.Mutex)) // want `per-key mutex in n.locks replaced by Store`
	}
}

// NewNodeLocks fills the map of a value no one else can see yet.
func NewNodeLocks(names []string) *NodeLocks {
	n := &NodeLocks{}
	for _, name := range names {
		n.locks.Store(name, new(sync.Mutex))
	}
	return n
}

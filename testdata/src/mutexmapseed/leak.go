package mutexmapseed

import (
	"context"
	"sync"

	"mutexmaptypes"
)

// LeakyCloud is the fix the seed's reviewers settled on: the per-service
// mutexes are never removed. One small mutex per service ever seen stays
// in the map; every caller for a UID locks the same one.
type LeakyCloud struct {
	api          API
	serviceLocks sync.Map
}

func (c *LeakyCloud) lockService(uid mutexmaptypes.UID) func() {
	v, _ := c.serviceLocks.LoadOrStore(uid, new(sync.Mutex))
	mu := v.(*sync.Mutex)
	mu.Lock()
	return mu.Unlock
}

func (c *LeakyCloud) EnsureLoadBalancer(ctx context.Context, svc *mutexmaptypes.Service, nodes []string) (*LoadBalancer, error) {
	defer c.lockService(svc.UID)()
	return c.api.Ensure(ctx, svc.Name, nodes)
}

func (c *LeakyCloud) EnsureLoadBalancerDeleted(ctx context.Context, svc *mutexmaptypes.Service) error {
	defer c.lockService(svc.UID)()
	return c.api.Remove(ctx, svc.Name)
}

// Balancers caches the balancers found per service (not locks): removing
// an entry when the service goes away is ordinary.
type Balancers struct {
	byUID sync.Map // types.UID -> *LoadBalancer
}

func (b *Balancers) Remember(uid mutexmaptypes.UID, lb *LoadBalancer) { b.byUID.Store(uid, lb) }

func (b *Balancers) Get(uid mutexmaptypes.UID) (*LoadBalancer, bool) {
	v, ok := b.byUID.Load(uid)
	if !ok {
		return nil, false
	}
	return v.(*LoadBalancer), true
}

func (b *Balancers) OnServiceDeleted(svc *mutexmaptypes.Service) {
	b.byUID.Delete(svc.UID)
}

// Serialized keeps a mutex per service, and when a service goes away
// leaves it in place: only the balancer cache is cleared.
type Serialized struct {
	locks     sync.Map
	balancers Balancers
}

func (s *Serialized) Reconcile(svc *mutexmaptypes.Service, work func()) {
	v, _ := s.locks.LoadOrStore(svc.UID, new(sync.Mutex))
	mu := v.(*sync.Mutex)
	mu.Lock()
	defer mu.Unlock()
	work()
}

func (s *Serialized) OnServiceDeleted(svc *mutexmaptypes.Service) {
	s.balancers.OnServiceDeleted(svc)
}

package mutexmapseed

import (
	"context"
	"sync"
)

// Memo computes a value once per key, serialising the computation with a
// per-key mutex that a deferred closure unlocks and then deletes. Keys are
// of any type, so nothing can be said about their types; the delete still
// splits the lock and two computations for one key can run at once.
type Memo struct {
	values   sync.Map
	inflight sync.Map
}

func (m *Memo) Get(ctx context.Context, key any, compute func(context.Context, any) (any, error)) (any, error) {
	if v, ok := m.values.Load(key); ok {
		return v, nil
	}
	actual, _ := m.inflight.LoadOrStore(key, new(sync.Mutex))
	mu := actual.(*sync.Mutex)
	mu.Lock()
	defer func() {
		mu.Unlock()
		m.inflight.Delete(key) // want `per-key mutex removed from m.inflight by Delete`
	}()
	if v, ok := m.values.Load(key); ok {
		return v, nil
	}
	v, err := compute(ctx, key)
	if err != nil {
		return nil, err
	}
	m.values.Store(key, v)
	return v, nil
}

// Forget evicts a computed value (not a lock): silent.
func (m *Memo) Forget(key any) { m.values.Delete(key) }

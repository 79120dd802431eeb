package syncmap

import "sync"

// A consumer that cancels what is in flight and claims what it starts.
// The cancel branch's lookup ends in continue; past it, the claim
// (LoadOrStore through a helper) is what decides the release of a claim
// that was not wanted after all. Silent.

type opsCache struct {
	inFlight sync.Map // op id -> struct{}
	cancels  sync.Map // op id -> func()
}

func (o *opsCache) InFlight(id uint64) bool {
	_, ok := o.inFlight.Load(id)
	return ok
}

func (o *opsCache) Claim(id uint64) (already bool) {
	_, already = o.inFlight.LoadOrStore(id, struct{}{})
	return already
}

func (o *opsCache) Release(id uint64) {
	o.cancels.Delete(id)
	o.inFlight.Delete(id)
}

func (o *opsCache) Cancel(id uint64) {
	if f, ok := o.cancels.Load(id); ok {
		f.(func())()
	}
}

type replicaOp struct {
	id     uint64
	cancel bool
	state  string
}

type opConsumer struct {
	ops     opsCache
	current func(id uint64) string
	run     func(op replicaOp)
}

func (c *opConsumer) Consume(queue <-chan replicaOp) {
	for op := range queue {
		if op.cancel && c.ops.InFlight(op.id) {
			c.ops.Cancel(op.id)
			continue
		}
		_, already := c.ops.inFlight.LoadOrStore(op.id, struct{}{})
		skip := already || c.current(op.id) != op.state
		if skip {
			if !already {
				c.ops.Release(op.id)
			}
			continue
		}
		go func() {
			defer c.ops.Release(op.id)
			c.run(op)
		}()
	}
}

// ConsumeClaimed claims through the cache's helper: the same. Silent.
func (c *opConsumer) ConsumeClaimed(queue <-chan replicaOp) {
	for op := range queue {
		if op.cancel && c.ops.InFlight(op.id) {
			c.ops.Cancel(op.id)
			continue
		}
		already := c.ops.Claim(op.id)
		if already || c.current(op.id) != op.state {
			if !already {
				c.ops.Release(op.id)
			}
			continue
		}
		go func() {
			defer c.ops.Release(op.id)
			c.run(op)
		}()
	}
}

// ConsumeUnclaimed releases on the lookup alone, with no claim in
// between: a worker that claimed the op since loses its entry.
func (c *opConsumer) ConsumeUnclaimed(queue <-chan replicaOp) {
	for op := range queue {
		if c.ops.InFlight(op.id) {
			continue
		}
		if c.current(op.id) != op.state {
			c.ops.Release(op.id) // want `c.ops.Release is decided by c.ops.InFlight, read by an earlier call`
		}
	}
}

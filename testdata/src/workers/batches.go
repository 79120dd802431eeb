package workers

import (
	"sync"
	"sync/atomic"
)

// keyedBatches is a self-locking map of per-key batches: a flush timer
// and metrics read it from other goroutines under the read lock.
type keyedBatches struct {
	mu      sync.RWMutex
	batches map[string]*batch
}

func (k *keyedBatches) get(key string) *batch {
	k.mu.RLock()
	defer k.mu.RUnlock()
	return k.batches[key]
}

func (k *keyedBatches) put(key string, b *batch) {
	k.mu.Lock()
	k.batches[key] = b
	k.mu.Unlock()
}

type batch struct{ msgs [][]byte }

// Batcher groups a producer's messages by key. Add is driven by the
// producer's event loop alone: it counts messages in fields of its own
// with no lock, so two calls at once would be a data race the race
// detector reports. A batch found missing cannot be stored by anyone else
// before Add stores its own, since only Add stores batches. Silent.
type Batcher struct {
	keyed   keyedBatches
	count   int
	pending [][]byte
}

func (b *Batcher) Add(key string, msg []byte) {
	part := b.keyed.get(key)
	if part == nil {
		part = &batch{}
		b.keyed.put(key, part)
	}
	part.msgs = append(part.msgs, msg)
	b.count++
	b.pending = append(b.pending, msg)
}

// SharedBatcher counts atomically: it is made for concurrent callers, and
// two of them may both find a key missing and each store a batch; the
// first one's messages are lost.
type SharedBatcher struct {
	keyed keyedBatches
	count atomic.Int64
}

func (b *SharedBatcher) Add(key string, msg []byte) {
	part := b.keyed.get(key)
	if part == nil {
		part = &batch{}
		b.keyed.put(key, part) // want `b.keyed.mu is locked again for writing by b.keyed.put after RUnlock: part was missing under the read lock`
	}
	part.msgs = append(part.msgs, msg)
	b.count.Add(1)
}

// PreloadedBatcher's Add runs one call at a time, like Batcher's, but
// Preload stores batches too, from whichever goroutine configures the
// producer: a batch Add found missing may be stored by Preload before Add
// stores its own.
type PreloadedBatcher struct {
	keyed keyedBatches
	count int
}

func (b *PreloadedBatcher) Add(key string, msg []byte) {
	part := b.keyed.get(key)
	if part == nil {
		part = &batch{}
		b.keyed.put(key, part) // want `b.keyed.mu is locked again for writing by b.keyed.put after RUnlock: part was missing under the read lock`
	}
	part.msgs = append(part.msgs, msg)
	b.count++
}

func (b *PreloadedBatcher) Preload(keys []string) {
	for _, k := range keys {
		b.keyed.put(k, &batch{})
	}
}

// RestoredBatcher's Add runs one call at a time too, but Restore, which
// other packages call from wherever they like, stores batches directly.
type RestoredBatcher struct {
	mu      sync.RWMutex
	batches map[string]*batch
	count   int
}

func (b *RestoredBatcher) Add(key string, msg []byte) {
	b.mu.RLock()
	part := b.batches[key]
	b.mu.RUnlock()
	if part == nil {
		part = &batch{}
		b.mu.Lock() // want `b.mu is locked again for writing after RUnlock: part was missing under the read lock`
		b.batches[key] = part
		b.mu.Unlock()
	}
	part.msgs = append(part.msgs, msg)
	b.count++
}

func (b *RestoredBatcher) Restore(saved map[string]*batch) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for k, v := range saved {
		b.batches[k] = v
	}
}

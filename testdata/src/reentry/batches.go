package reentry

import "sync"

// A producer's batch builder keeps one batch per message key behind a
// read-write lock of their own, and counts the messages with no lock at
// all: its caller, the producer's event loop, adds and flushes one call
// at a time. Two calls at once would race on count, so the one Lock (in
// add, reached only from Add) cannot come between Flush's two RLocks.

type keyedParts struct {
	parts map[string][]string
	mu    *sync.RWMutex
}

func newKeyedParts() keyedParts {
	return keyedParts{parts: map[string][]string{}, mu: &sync.RWMutex{}}
}

func (k *keyedParts) add(key, msg string) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.parts[key] = append(k.parts[key], msg)
}

// drop has no caller: it never runs.
func (k *keyedParts) drop(key string) {
	k.mu.Lock()
	defer k.mu.Unlock()
	delete(k.parts, key)
}

type keyedBuilder struct {
	keyed keyedParts
	count int
}

func newKeyedBuilder() *keyedBuilder {
	return &keyedBuilder{keyed: newKeyedParts()}
}

// Add queues msg under its key.
func (b *keyedBuilder) Add(key, msg string) bool {
	if b.count >= 100 {
		return false
	}
	b.keyed.add(key, msg)
	b.count++
	return true
}

// Flush hands every batch over and empties the builder, holding the read
// lock while reset takes it again.
func (b *keyedBuilder) Flush() [][]string {
	if b.count == 0 {
		return nil
	}
	b.keyed.mu.RLock()
	defer b.keyed.mu.RUnlock()
	var out [][]string
	for _, p := range b.keyed.parts {
		out = append(out, p)
	}
	b.reset()
	return out
}

func (b *keyedBuilder) reset() {
	b.keyed.mu.RLock()
	defer b.keyed.mu.RUnlock()
	b.count = 0
	b.keyed.parts = map[string][]string{}
}

// A builder whose Discard write-locks without touching the count: it may
// run beside Flush, and its Lock can come between the two RLocks.

type sharedBuilder struct {
	keyed keyedParts
	count int
}

func newSharedBuilder() *sharedBuilder {
	return &sharedBuilder{keyed: newKeyedParts()}
}

func (b *sharedBuilder) Add(key, msg string) {
	b.keyed.add(key, msg)
	b.count++
}

// Discard drops one key's batch; it keeps no count.
func (b *sharedBuilder) Discard(key string) {
	b.keyed.mu.Lock()
	defer b.keyed.mu.Unlock()
	delete(b.keyed.parts, key)
}

func (b *sharedBuilder) Flush() int {
	if b.count == 0 {
		return 0
	}
	b.keyed.mu.RLock()
	defer b.keyed.mu.RUnlock()
	n := len(b.keyed.parts)
	b.clear() // want `b.keyed.mu is held for reading here and b.clear takes its read lock again`
	return n
}

func (b *sharedBuilder) clear() {
	b.keyed.mu.RLock()
	defer b.keyed.mu.RUnlock()
	b.count = 0
}

// A builder handed its lock by the caller: two builders may share it, and
// one's Add can Lock between the other's two RLocks.

type lentBuilder struct {
	mu    *sync.RWMutex
	parts map[string][]string
	count int
}

func newLentBuilder(mu *sync.RWMutex) *lentBuilder {
	return &lentBuilder{mu: mu, parts: map[string][]string{}}
}

func (b *lentBuilder) Add(key, msg string) {
	b.mu.Lock()
	b.parts[key] = append(b.parts[key], msg)
	b.mu.Unlock()
	b.count++
}

func (b *lentBuilder) Flush() int {
	if b.count == 0 {
		return 0
	}
	b.mu.RLock()
	defer b.mu.RUnlock()
	n := len(b.parts)
	b.clear() // want `b.mu is held for reading here and b.clear takes its read lock again`
	return n
}

func (b *lentBuilder) clear() {
	b.mu.RLock()
	defer b.mu.RUnlock()
	b.count = 0
}

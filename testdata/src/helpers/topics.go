package helpers

import (
	"strings"
	"sync"
)

// A lookup directory of registrations keyed by "topic/channel": the
// admin API lists some by name and deletes them.
type Topics struct {
	sync.RWMutex
	regs map[string][]string // key -> producers
}

// Matching lists the keys under topic: which entries, by their keys
// alone.
func (t *Topics) Matching(topic string) []string {
	t.RLock()
	defer t.RUnlock()
	var keys []string
	for k := range t.regs {
		if strings.HasPrefix(k, topic+"/") {
			keys = append(keys, k)
		}
	}
	return keys
}

// Idle lists the keys no producer serves any more: by their state.
func (t *Topics) Idle() []string {
	t.RLock()
	defer t.RUnlock()
	var keys []string
	for k, producers := range t.regs {
		if len(producers) == 0 {
			keys = append(keys, k)
		}
	}
	return keys
}

func (t *Topics) Remove(key string) {
	t.Lock()
	defer t.Unlock()
	delete(t.regs, key)
}

func (t *Topics) Register(key, producer string) {
	t.Lock()
	defer t.Unlock()
	t.regs[key] = append(t.regs[key], producer)
}

// DeleteTopic removes every channel of the topic: a key still matches
// whatever happened to its entry in between, and removing one that is
// gone already does nothing. Silent.
func (t *Topics) DeleteTopic(topic string) {
	for _, k := range t.Matching(topic) {
		t.Remove(k)
	}
}

// ReapIdle removes the entries that had no producer when listed: one a
// producer registered with in between is removed while it is served.
func (t *Topics) ReapIdle() {
	for _, k := range t.Idle() {
		t.Remove(k) // want `t.RWMutex is locked again for writing by t.Remove after RUnlock: the write is decided by t.Idle\(\)`
	}
}

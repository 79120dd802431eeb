package syncmap

import (
	"fmt"
	"sync"
)

// badgeKey names one rendering of a badge.
type badgeKey struct {
	label string
	width int
}

// Badges keeps rendered badges, up to a bound: once the bound is
// reached the whole cache is emptied and starts again. The miss found by
// Load only leads to rendering; the reset is decided by the count, read
// again under the lock that guards it. Emptying the map where one entry
// was missing drops whatever was stored in between along with the rest,
// which is what a reset means. Silent. (A keyed Delete after a miss
// removes that very entry and stays reported: stalls.go.)
type Badges struct {
	mu       sync.Mutex
	rendered sync.Map // badgeKey -> string
	count    int
	limit    int
}

func (b *Badges) Render(label string, width int) string {
	k := badgeKey{label, width}
	if s, ok := b.rendered.Load(k); ok {
		return s.(string)
	}
	s := fmt.Sprintf("<svg width=%q>%s</svg>", fmt.Sprint(width), label)
	b.mu.Lock()
	if b.count >= b.limit {
		b.rendered.Clear()
		b.count = 0
	}
	b.count++
	b.rendered.Store(k, s)
	b.mu.Unlock()
	return s
}

// RenderLoose decides the reset on a count read in an earlier section:
// another caller may have reset the cache and refilled part of it since,
// and this reset then throws away fresh entries the bound allowed.
// Reported.
func (b *Badges) RenderLoose(label string, width int) string {
	k := badgeKey{label, width}
	if s, ok := b.rendered.Load(k); ok {
		return s.(string)
	}
	b.mu.Lock()
	full := b.count >= b.limit
	b.mu.Unlock()
	s := fmt.Sprintf("<svg width=%q>%s</svg>", fmt.Sprint(width), label)
	b.mu.Lock() // want `b.mu is locked again`
	if full {
		b.rendered.Clear()
		b.count = 0
	}
	b.count++
	b.rendered.Store(k, s)
	b.mu.Unlock()
	return s
}

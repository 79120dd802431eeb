// Package widgets draws a gauge in a terminal UI. Draw holds the
// gauge's read lock and asks colorFor, which takes it again: known
// false in its program, where Draw and every writer (Add, SetColors) run
// on the UI toolkit's one event goroutine (the application queues its
// updates there), so no Lock can wait between the two RLocks (which
// goroutine runs what). The writers are exported and called from
// another package.
package widgets

import (
	"fmt"
	"strings"
	"sync"
)

type Gauge struct {
	mu     sync.RWMutex
	values []int
	colors []string
}

func (g *Gauge) Add(v int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.values = append(g.values, v)
}

func (g *Gauge) SetColors(colors ...string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.colors = colors
}

func (g *Gauge) colorFor(i int) string {
	g.mu.RLock()
	defer g.mu.RUnlock()
	if len(g.colors) == 0 {
		return "white"
	}
	return g.colors[i%len(g.colors)]
}

// Draw renders the values, each in its series' colour.
func (g *Gauge) Draw(b *strings.Builder) {
	g.mu.RLock()
	defer g.mu.RUnlock()
	for i, v := range g.values {
		fmt.Fprintf(b, "[%s]%d ", g.colorFor(i), v) // want `g.mu is held for reading here and g.colorFor takes its read lock again`
	}
}

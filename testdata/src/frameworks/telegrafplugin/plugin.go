// Package telegrafplugin holds telegraf plugins: the agent runs an
// input's Gather once at a time, after its Start, and an output's Write
// from one flush loop, so state only they write cannot change between
// two of their sections.
package telegrafplugin

import (
	"net/http"
	"sync"

	"github.com/influxdata/telegraf"
)

type follower struct{ id string }

func (f *follower) run() {}

// ContainerLogs follows each container Gather finds: Gather adds the
// followers, and each follower's goroutine only removes its own entry
// when it ends. A container found missing cannot appear before Gather
// stores it: silent.
type ContainerLogs struct {
	mu        sync.Mutex
	following map[string]*follower
}

func (c *ContainerLogs) Gather(acc telegraf.Accumulator) error {
	for _, id := range []string{"a", "b"} {
		c.mu.Lock()
		_, ok := c.following[id]
		c.mu.Unlock()
		if ok {
			continue
		}
		f := &follower{id: id}
		c.mu.Lock()
		c.following[id] = f
		c.mu.Unlock()
		go c.follow(f)
	}
	return nil
}

func (c *ContainerLogs) follow(f *follower) {
	f.run()
	c.mu.Lock()
	delete(c.following, f.id)
	c.mu.Unlock()
}

// Counters is an output keeping a running count per metric name, only
// in Write: silent.
type Counters struct {
	mu     sync.Mutex
	counts map[string]int
}

func (c *Counters) Write(metrics []telegraf.Metric) error {
	for _, m := range metrics {
		c.mu.Lock()
		n := c.counts[m.Name()]
		c.mu.Unlock()
		c.mu.Lock()
		c.counts[m.Name()] = n + 1
		c.mu.Unlock()
	}
	return nil
}

// Listener also serves HTTP requests, on goroutines of their own, that
// add to what Gather checks: reported.
type Listener struct {
	mu    sync.Mutex
	paths map[string]bool
}

func (l *Listener) Gather(acc telegraf.Accumulator) error {
	l.mu.Lock()
	seen := l.paths["/"]
	l.mu.Unlock()
	if seen {
		return nil
	}
	l.mu.Lock() // want `l.mu is locked again after the section that checked`
	l.paths["/"] = true
	l.mu.Unlock()
	return nil
}

func (l *Listener) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	l.mu.Lock()
	l.paths[r.URL.Path] = true
	l.mu.Unlock()
}

// Package exporter registers a pool's metrics. NewPool takes the wait
// timings from the registry in one section of r.mu and registers a gauge
// in another: known false (found in a metrics registry of a database
// proxy, where the registry is another package's). The gauge's closure
// captures the pool, and the pool holds the timings read in the first
// section, so the gauge is taken to derive from them; it reads only the
// pool's size, and it fills another entry ("Size", not "Wait"). Telling
// them apart needs field-sensitive taint through captured variables, and
// keys that differ by a constant suffix told apart.
package exporter

import "sync"

type Registry struct {
	mu   sync.Mutex
	vars map[string]any
}

type Timings struct{ count int }

// Timings returns the timings registered under name, registering new
// ones if there are none.
func (r *Registry) Timings(name string) *Timings {
	r.mu.Lock()
	defer r.mu.Unlock()
	if v, ok := r.vars[name]; ok {
		return v.(*Timings)
	}
	t := &Timings{}
	r.vars[name] = t
	return t
}

// Gauge registers f under name, replacing what is there.
func (r *Registry) Gauge(name string, f func() int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.vars[name] = f
}

type Pool struct {
	size int
	wait *Timings
}

func NewPool(r *Registry, name string) *Pool {
	p := &Pool{}
	p.wait = r.Timings(name + "Wait")
	r.Gauge(name+"Size", func() int { return p.size }) // want `r.mu is locked again by r.Gauge after the section that checked: the value written derives from p.wait`
	return p
}

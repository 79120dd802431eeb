// Package prometheus is a stand-in with the API of
// github.com/prometheus/client_golang/prometheus, enough for the fixtures
// to type-check: a vector creates each labelled child once and hands the
// same one to every caller.
package prometheus

import (
	"strings"
	"sync"
)

type Counter interface{ Inc() }

type Observer interface{ Observe(float64) }

type counter struct {
	mu sync.Mutex
	n  float64
}

func (c *counter) Inc() { c.mu.Lock(); c.n++; c.mu.Unlock() }

func (c *counter) Observe(v float64) { c.mu.Lock(); c.n += v; c.mu.Unlock() }

type CounterVec struct {
	mu       sync.Mutex
	children map[string]*counter
}

func (v *CounterVec) WithLabelValues(lvs ...string) Counter {
	k := strings.Join(lvs, "\xff")
	v.mu.Lock()
	defer v.mu.Unlock()
	c, ok := v.children[k]
	if !ok {
		c = &counter{}
		v.children[k] = c
	}
	return c
}

type HistogramVec struct{ CounterVec }

func (v *HistogramVec) WithLabelValues(lvs ...string) Observer {
	return v.CounterVec.WithLabelValues(lvs...).(*counter)
}

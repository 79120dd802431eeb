package syncmap

import (
	"sync"
	"sync/atomic"

	"github.com/prometheus/client_golang/prometheus"
)

// Metrics caches the children a metrics vector hands out for each label
// set, to spare the vector's hashing: racers that both miss get the very
// same child from the vector and store it twice. Silent.
type Metrics struct {
	requests *prometheus.CounterVec
	latency  *prometheus.HistogramVec
	byRoute  sync.Map // string -> prometheus.Counter
	timings  sync.Map // string -> routeTimings
}

type routeTimings struct {
	count   prometheus.Counter
	seconds prometheus.Observer
}

func (m *Metrics) Request(route string) {
	c, ok := m.byRoute.Load(route)
	if !ok {
		c = m.requests.WithLabelValues(route)
		m.byRoute.Store(route, c)
	}
	c.(prometheus.Counter).Inc()
}

func (m *Metrics) Time(route string, secs float64) {
	t, ok := m.timings.Load(route)
	if !ok {
		t = routeTimings{
			count:   m.requests.WithLabelValues(route, "timed"),
			seconds: m.latency.WithLabelValues(route),
		}
		m.timings.Store(route, t)
	}
	t.(routeTimings).count.Inc()
	t.(routeTimings).seconds.Observe(secs)
}

// Gauges caches counters it makes itself: two racers make two, and the
// increments on the one replaced are lost. Reported.
type Gauges struct {
	byName sync.Map // string -> *tally
}

type tally struct {
	n atomic.Int64
}

func (g *Gauges) Inc(name string) {
	v, ok := g.byName.Load(name)
	if !ok {
		v = &tally{}
		g.byName.Store(name, v) // want `g.byName.Store stores what g.byName.Load found missing`
	}
	v.(*tally).n.Add(1)
}

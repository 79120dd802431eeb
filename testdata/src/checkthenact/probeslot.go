package checkthenact

import (
	"errors"
	"sync"
	"time"
)

var (
	errProbing    = errors.New("a probe of this path is already running")
	errPathClosed = errors.New("path closed")
)

// pathProbe is the round trips measured by one probe of a path.
type pathProbe struct {
	sent    time.Time
	acked   bool
	samples []time.Duration
}

// netPath runs one probe at a time. beginProbe takes the slot: it sets
// probe only where it is empty, and fails while another probe holds it;
// the probe's own call empties it again. Whoever got the probe owns it
// until then, as after taking a lock.
type netPath struct {
	mu     sync.Mutex
	probe  *pathProbe
	closed bool
	rtt    time.Duration
}

func (p *netPath) beginProbe() (*pathProbe, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return nil, errPathClosed
	}
	if p.probe != nil {
		return nil, errProbing
	}
	p.probe = &pathProbe{sent: time.Now()}
	return p.probe, nil
}

func (p *netPath) finishProbe() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.probe = nil
}

// Probe records the round trip on the probe it holds. Silent.
func (p *netPath) Probe(send func() error) error {
	probe, err := p.beginProbe()
	if err != nil {
		return err
	}
	defer p.finishProbe()
	if err := send(); err != nil {
		return err
	}
	p.ack(probe)
	return nil
}

func (p *netPath) ack(probe *pathProbe) {
	p.mu.Lock()
	defer p.mu.Unlock()
	probe.acked = true
	probe.samples = append(probe.samples, time.Since(probe.sent))
	p.rtt = probe.samples[0]
}

// sharedPath hands every caller the probe running, starting one when
// there is none: two callers share it, and a finishing one empties the
// slot under the other.
type sharedPath struct {
	mu    sync.Mutex
	probe *pathProbe
	rtt   time.Duration
}

func (p *sharedPath) currentProbe() (*pathProbe, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.probe == nil {
		p.probe = &pathProbe{sent: time.Now()}
	}
	return p.probe, nil
}

func (p *sharedPath) finishProbe() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.probe = nil
}

func (p *sharedPath) Probe(send func() error) error {
	probe, err := p.currentProbe()
	if err != nil {
		return err
	}
	defer p.finishProbe()
	if err := send(); err != nil {
		return err
	}
	p.ack(probe) // want `p.mu is locked again by p.ack after the section that checked`
	return nil
}

func (p *sharedPath) ack(probe *pathProbe) {
	p.mu.Lock()
	defer p.mu.Unlock()
	probe.acked = true
	probe.samples = append(probe.samples, time.Since(probe.sent))
	p.rtt = probe.samples[0]
}

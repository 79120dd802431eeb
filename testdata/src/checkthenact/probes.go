package checkthenact

import (
	"sync"
	"time"
)

// Probe runs a check until it passes, one run at a time; Stop ends a
// run. The run's goroutine sees Stop between its tries, but a Stop that
// comes after the last try is undone when the run marks itself idle.
// Reported, in the goroutine.
type Probe struct {
	sync.Mutex
	state    int // idle, running, stopped
	interval time.Duration
}

const (
	probeIdle = iota
	probeRunning
	probeStopped
)

func (p *Probe) Do(check func() error) {
	p.Lock()
	if p.state != probeIdle {
		p.Unlock()
		return
	}
	p.state = probeRunning
	interval := p.interval
	p.Unlock()
	go func() {
		for check() != nil {
			time.Sleep(interval)
			p.Lock()
			if p.state == probeStopped {
				p.Unlock()
				return
			}
			p.Unlock()
		}
		p.Lock() // want `p is locked again after the section that checked: the write is decided by p.state`
		p.state = probeIdle
		p.Unlock()
	}()
}

func (p *Probe) Stop() {
	p.Lock()
	p.state = probeStopped
	p.Unlock()
}

// DoChecked marks the run idle only if no Stop came since its last try.
// Silent.
func (p *Probe) DoChecked(check func() error) {
	p.Lock()
	if p.state != probeIdle {
		p.Unlock()
		return
	}
	p.state = probeRunning
	interval := p.interval
	p.Unlock()
	go func() {
		for check() != nil {
			time.Sleep(interval)
			p.Lock()
			if p.state == probeStopped {
				p.Unlock()
				return
			}
			p.Unlock()
		}
		p.Lock()
		if p.state == probeRunning {
			p.state = probeIdle
		}
		p.Unlock()
	}()
}

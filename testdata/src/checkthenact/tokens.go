package checkthenact

import (
	"context"
	"sync"
)

// Jobs runs one job per tenant at a time across overlapping rounds.
// claim takes every tenant not already running, marking it as running in
// the same section, and hands back only those it took: the round owns
// them until it lets each go. Silent.
type Jobs struct {
	mu      sync.Mutex
	running map[string]struct{}
}

func (j *Jobs) claim(tenants []string) []string {
	taken := make([]string, 0, len(tenants))
	j.mu.Lock()
	for _, t := range tenants {
		if _, ok := j.running[t]; ok {
			continue
		}
		taken = append(taken, t)
		j.running[t] = struct{}{}
	}
	j.mu.Unlock()
	return taken
}

func (j *Jobs) release(t string) {
	j.mu.Lock()
	delete(j.running, t)
	j.mu.Unlock()
}

func (j *Jobs) Round(ctx context.Context, tenants []string, run func(string)) {
	var wg sync.WaitGroup
	for _, t := range j.claim(tenants) {
		if ctx.Err() != nil {
			j.release(t) // cancelled: let the tenant go unrun
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			run(t)
			j.release(t)
		}()
	}
	wg.Wait()
}

// Sweeps lists the idle tenants without marking them, and marks each one
// only later: two rounds can both find a tenant idle and both run it.
type Sweeps struct {
	mu      sync.Mutex
	running map[string]struct{}
}

func (s *Sweeps) idle(tenants []string) []string {
	out := make([]string, 0, len(tenants))
	s.mu.Lock()
	for _, t := range tenants {
		if _, ok := s.running[t]; !ok {
			out = append(out, t)
		}
	}
	s.mu.Unlock()
	return out
}

func (s *Sweeps) mark(t string) {
	s.mu.Lock()
	s.running[t] = struct{}{}
	s.mu.Unlock()
}

func (s *Sweeps) Round(tenants []string, run func(string)) {
	for _, t := range s.idle(tenants) {
		s.mark(t) // want `s.mu is locked again by s.mark after the section that checked`
		run(t)
	}
}

package checkthenact

import (
	"errors"
	"sync"
)

// A node agent keeps one runner per job it executes, by job name. A
// reconcile that finds no runner registers one, and takes it out again
// when it cannot start it. The removal undoes the reconcile's own
// registration: whether the entry is still that runner is a question
// about the registration, not about the earlier look that found none.

type runner struct {
	job     string
	started bool
}

func (r *runner) start() error {
	if r.job == "" {
		return errors.New("no job")
	}
	r.started = true
	return nil
}

type runnerTable struct {
	mu     sync.Mutex
	byName map[string]*runner
}

func (t *runnerTable) lookup(name string) *runner {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.byName[name]
}

func (t *runnerTable) register(name string) *runner {
	t.mu.Lock()
	defer t.mu.Unlock()
	r := &runner{job: name}
	t.byName[name] = r
	return r
}

func (t *runnerTable) unregister(name string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.byName, name)
}

type jobSpec struct {
	Name  string
	Image string
}

type jobSource interface {
	load(key string, into *jobSpec) error
}

type agent struct {
	runners *runnerTable
	src     jobSource
}

// reconcile registers a runner for the job unless one exists, and
// unregisters it when it fails to start.
func (a *agent) reconcile(key string) error {
	spec := &jobSpec{}
	if err := a.src.load(key, spec); err != nil {
		return err
	}
	if a.runners.lookup(spec.Name) != nil {
		return nil
	}
	r := a.runners.register(spec.Name) // want `a.runners.mu is locked again by a.runners.register after the section that checked`
	if err := r.start(); err != nil {
		a.runners.unregister(spec.Name)
		return err
	}
	return nil
}

// reconcileLazily registers a runner only for jobs with an image, but
// unregisters on any failure: where it registered nothing, the removal
// acts on the earlier look alone, and takes out a runner another
// reconcile registered since.
func (a *agent) reconcileLazily(key string) error {
	spec := &jobSpec{}
	if err := a.src.load(key, spec); err != nil {
		return err
	}
	if a.runners.lookup(spec.Name) != nil {
		return nil
	}
	var r *runner
	if spec.Image != "" {
		r = a.runners.register(spec.Name) // want `a.runners.mu is locked again by a.runners.register after the section that checked`
	} else {
		r = &runner{}
	}
	if err := r.start(); err != nil {
		a.runners.unregister(spec.Name) // want `a.runners.mu is locked again by a.runners.unregister after the section that checked`
		return err
	}
	return nil
}

// A backup marks the items it has written in a set; a worker that finds
// an item unmarked marks it, and unmarks it when a plugin skips the item.
// The mark is the same whoever sets it: one set by another worker in
// between is taken out with this worker's own.
type itemSet struct {
	mu    sync.Mutex
	items map[string]struct{}
}

func (s *itemSet) has(key string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.items[key]
	return ok
}

func (s *itemSet) add(key string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.items[key] = struct{}{}
}

func (s *itemSet) remove(key string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.items, key)
}

func backUpItem(done *itemSet, key string, skip func(string) bool) bool {
	if done.has(key) {
		return false
	}
	done.add(key)
	if skip(key) {
		done.remove(key) // want `done.mu is locked again by done.remove after the section that checked`
		return false
	}
	return true
}

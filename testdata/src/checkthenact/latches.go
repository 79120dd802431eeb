package checkthenact

import (
	"context"
	"errors"
	"sync"
)

type JobState int

const (
	JobRunning JobState = iota
	JobCancelled
	JobFailed
	JobDone
)

type Job struct {
	ID    string
	State JobState
}

// jobEntry's finished flag is set whenever its job leaves the running
// state, and never cleared: a section that goes on only while finished
// is still false sees the state as every earlier section saw it.
type jobEntry struct {
	job      *Job
	finished bool
	done     chan struct{}
}

// TaskRunner ends each job once: whoever finds it unfinished ends it.
type TaskRunner struct {
	mu     sync.Mutex
	jobs   map[string]*jobEntry
	active int
}

func (r *TaskRunner) finish(e *jobEntry, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if e.finished {
		return
	}
	if err != nil {
		e.job.State = JobFailed
	} else {
		e.job.State = JobDone
	}
	e.finished = true
	close(e.done)
	r.active--
}

func (r *TaskRunner) Cancel(id string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	e, ok := r.jobs[id]
	if !ok || e.finished {
		return errors.New("no running job " + id)
	}
	e.job.State = JobCancelled
	e.finished = true
	close(e.done)
	r.active--
	return nil
}

// run checks whether a Cancel came first; if not, it records the
// handler's own cancellation, but only while the job is unfinished: a
// Cancel or finish in between has set the flag, and run leaves it be.
func (r *TaskRunner) run(ctx context.Context, e *jobEntry, handler func(context.Context) error) {
	err := handler(ctx)
	if errors.Is(err, context.Canceled) {
		r.mu.Lock()
		cancelled := e.job.State == JobCancelled
		r.mu.Unlock()
		if !cancelled {
			r.mu.Lock()
			if !e.finished {
				e.job.State = JobCancelled
				e.finished = true
				close(e.done)
				r.active--
			}
			r.mu.Unlock()
		}
		return
	}
	r.finish(e, err)
}

// Attempt and its entry are the same, but RetryPool's Retry puts a
// finished attempt back to running and clears the flag: the flag no
// longer says the state is unchanged.
type Attempt struct {
	ID    string
	State JobState
}

type attemptEntry struct {
	attempt  *Attempt
	finished bool
	done     chan struct{}
}

type RetryPool struct {
	mu       sync.Mutex
	attempts map[string]*attemptEntry
	active   int
}

func (p *RetryPool) Retry(id string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if e, ok := p.attempts[id]; ok && e.finished {
		e.attempt.State = JobRunning
		e.finished = false
		e.done = make(chan struct{})
		p.active++
	}
}

func (p *RetryPool) run(ctx context.Context, e *attemptEntry, handler func(context.Context) error) {
	if err := handler(ctx); errors.Is(err, context.Canceled) {
		p.mu.Lock()
		cancelled := e.attempt.State == JobCancelled
		p.mu.Unlock()
		if !cancelled {
			p.mu.Lock() // want `p.mu is locked again after the section that checked: the write is decided by cancelled`
			if !e.finished {
				e.attempt.State = JobCancelled
				e.finished = true
				close(e.done)
				p.active--
			}
			p.mu.Unlock()
		}
	}
}

// LeaseBook latches like TaskRunner, but Renew swaps in a new lease without
// setting the flag: the state read hangs off the lease, so the swap
// changes it, and the flag no longer says it is unchanged.
type Lease struct {
	Holder string
	State  JobState
}

type leaseEntry struct {
	lease    *Lease
	finished bool
}

type LeaseBook struct {
	mu       sync.Mutex
	entries  map[string]*leaseEntry
	released int
}

func (l *LeaseBook) Renew(name, holder string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if e, ok := l.entries[name]; ok && !e.finished {
		e.lease = &Lease{Holder: holder}
	}
}

func (l *LeaseBook) Expire(name string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if e, ok := l.entries[name]; ok && !e.finished {
		e.lease.State = JobDone
		e.finished = true
		l.released++
	}
}

func (l *LeaseBook) watch(ctx context.Context, e *leaseEntry, hold func(context.Context) error) {
	if err := hold(ctx); errors.Is(err, context.Canceled) {
		l.mu.Lock()
		cancelled := e.lease.State == JobCancelled
		l.mu.Unlock()
		if !cancelled {
			l.mu.Lock() // want `l.mu is locked again after the section that checked: the write is decided by cancelled`
			if !e.finished {
				e.lease.State = JobCancelled
				e.finished = true
				l.released++
			}
			l.mu.Unlock()
		}
	}
}

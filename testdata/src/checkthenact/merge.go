package checkthenact

import (
	"slices"
	"sync"
)

type batch struct {
	records []string
	frozen  bool
}

// Backlog is a partition's queue of batches: producers append at the
// tail, the sender pops from the head.
type Backlog struct {
	mu      sync.Mutex
	batches []*batch
	merging bool
}

func combine(span []*batch) *batch {
	out := &batch{}
	for _, b := range span {
		out.records = append(out.records, b.records...)
	}
	return out
}

// Merge freezes the unsent batches, merges them outside the lock, and
// splices the result in where it finds the first of them again: if the
// sender took it meanwhile, it gives the merge up. Silent.
func (q *Backlog) Merge() {
	q.mu.Lock()
	if q.merging || len(q.batches) < 2 {
		q.mu.Unlock()
		return
	}
	span := slices.Clone(q.batches)
	for _, b := range span {
		b.frozen = true
	}
	q.merging = true
	q.mu.Unlock()

	merged := combine(span)

	q.mu.Lock()
	defer q.mu.Unlock()
	q.merging = false
	at := slices.Index(q.batches, span[0])
	if at < 0 {
		return
	}
	q.batches = slices.Replace(q.batches, at, at+len(span), merged)
}

// MergeBlind splices where the span was: batches popped meanwhile shift
// it, and batches appended meanwhile are dropped.
func (q *Backlog) MergeBlind() {
	q.mu.Lock()
	if q.merging || len(q.batches) < 2 {
		q.mu.Unlock()
		return
	}
	span := slices.Clone(q.batches)
	q.merging = true
	q.mu.Unlock()

	merged := combine(span)

	q.mu.Lock() // want `q.mu is locked again after the section that checked`
	defer q.mu.Unlock()
	q.merging = false
	q.batches = []*batch{merged}
}

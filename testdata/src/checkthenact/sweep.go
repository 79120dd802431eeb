package checkthenact

import "sync"

// Transfer is one download a progress display tracks.
type Transfer struct {
	ID       string
	Finished bool
}

// Transfers is the set of transfers still shown: handlers add, the
// display sweeps finished ones out.
type Transfers struct {
	mu      sync.Mutex
	pending map[string]Transfer
}

func (t *Transfers) Add(tr Transfer) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if _, ok := t.pending[tr.ID]; ok {
		return
	}
	t.pending[tr.ID] = tr
}

func (t *Transfers) Remove(id string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.pending, id)
}

// Restart marks a transfer as running again.
func (t *Transfers) Restart(id string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if tr, ok := t.pending[id]; ok {
		tr.Finished = false
		t.pending[id] = tr
	}
}

// List copies what is pending.
func (t *Transfers) List() []Transfer {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make([]Transfer, 0, len(t.pending))
	for _, tr := range t.pending {
		out = append(out, tr)
	}
	return out
}

// stored asks the content store, not the tracker, whether id is complete.
func stored(id string) bool { return len(id) > 3 }

// Sweep removes every listed transfer the store says is complete: the
// loop only walks what was listed, and removing one that someone removed
// in between does nothing. Silent.
func (t *Transfers) Sweep(hide bool) {
	for _, tr := range t.List() {
		if hide {
			t.Remove(tr.ID)
			continue
		}
		if stored(tr.ID) {
			t.Remove(tr.ID)
		}
	}
}

// SweepFinished removes transfers by what the copy said about them: one
// restarted in between is removed while it runs.
func (t *Transfers) SweepFinished() {
	for _, tr := range t.List() {
		if tr.Finished {
			t.Remove(tr.ID) // want `t.mu is locked again by t.Remove after the section that checked: the write is decided by t.List\(\), read in an earlier section, which may be stale; re-check it in this section`
		}
	}
}

// DrainIDs takes out, one by one, the ids a listing found. Silent.
func (t *Transfers) DrainIDs() []Transfer {
	var ids []string
	t.mu.Lock()
	for id := range t.pending {
		ids = append(ids, id)
	}
	t.mu.Unlock()
	var out []Transfer
	for _, id := range ids {
		t.mu.Lock()
		tr := t.pending[id]
		delete(t.pending, id)
		t.mu.Unlock()
		out = append(out, tr)
	}
	return out
}

// Clear removes everything a listing found, one by one. Silent.
func (t *Transfers) Clear() {
	var ids []string
	t.mu.Lock()
	for id := range t.pending {
		ids = append(ids, id)
	}
	t.mu.Unlock()
	for _, id := range ids {
		t.mu.Lock()
		delete(t.pending, id)
		t.mu.Unlock()
	}
}

// Adopt stores a transfer no listed one has the id of: two callers with
// the same id both find none and the second store replaces the first.
func (t *Transfers) Adopt(tr Transfer) bool {
	for _, p := range t.List() {
		if p.ID == tr.ID {
			return false
		}
	}
	t.mu.Lock() // want `t.mu is locked again after the section that checked: the write is decided by t.List\(\)`
	t.pending[tr.ID] = tr
	t.mu.Unlock()
	return true
}

package syncmap

import "sync"

// Quarantine keeps a record per suspect disk in a sync.Map; mu serialises
// every change of a record with the work that goes with it, so a helper
// that loads a record and stores it back runs, at each of its calls,
// inside one section of mu: the sweep calls it back from Range while
// holding mu, the report path calls it with mu held. Silent.
type Quarantine struct {
	mu      sync.Mutex
	records sync.Map // disk -> quarantineRecord
}

type quarantineRecord struct {
	retry bool
	since int64
}

// takeRetryLocked disarms a pending retry and reports whether one was
// armed. The caller holds q.mu.
func (q *Quarantine) takeRetryLocked(disk string) bool {
	v, ok := q.records.Load(disk)
	if !ok {
		return false
	}
	r := v.(quarantineRecord)
	if !r.retry {
		return false
	}
	r.retry = false
	q.records.Store(disk, r)
	return true
}

func (q *Quarantine) Sweep() []string {
	var due []string
	q.mu.Lock()
	q.records.Range(func(k, _ any) bool {
		if q.takeRetryLocked(k.(string)) {
			due = append(due, k.(string))
		}
		return true
	})
	q.mu.Unlock()
	return due
}

func (q *Quarantine) Report(disk string) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.takeRetryLocked(disk)
}

func (q *Quarantine) Arm(disk string, since int64) {
	q.mu.Lock()
	q.records.Store(disk, quarantineRecord{retry: true, since: since})
	q.mu.Unlock()
}

// LooseQuarantine sweeps without taking its mutex: Range calls the helper
// back with nothing held, and an Arm between the helper's Load and Store
// is undone.
type LooseQuarantine struct {
	mu      sync.Mutex
	records sync.Map // disk -> quarantineRecord
}

func (q *LooseQuarantine) takeRetry(disk string) bool {
	v, ok := q.records.Load(disk)
	if !ok {
		return false
	}
	r := v.(quarantineRecord)
	if !r.retry {
		return false
	}
	r.retry = false
	q.records.Store(disk, r) // want `q.records.Store writes a value derived from q.records.Load, read by an earlier call`
	return true
}

func (q *LooseQuarantine) Sweep() []string {
	var due []string
	q.records.Range(func(k, _ any) bool {
		if q.takeRetry(k.(string)) {
			due = append(due, k.(string))
		}
		return true
	})
	return due
}

func (q *LooseQuarantine) Arm(disk string, since int64) {
	q.mu.Lock()
	q.records.Store(disk, quarantineRecord{retry: true, since: since})
	q.mu.Unlock()
}

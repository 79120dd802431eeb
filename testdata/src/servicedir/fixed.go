package servicedir

import "context"

// The seed's fix: the address is recorded in the same critical section
// that decides whether the record exists (a reservation with a
// generation); the slow collection runs outside the lock and its result is
// stored only if the reservation is still the one in the map.

type reservation struct {
	Record
	generation uint64
	pending    bool
}

type ReservingDirectory struct {
	Directory
	reserved map[string]*reservation
	nextGen  uint64
}

func (d *ReservingDirectory) AddPod(ctx context.Context, pod Pod) error {
	d.mu.Lock()
	r := d.reserved[pod.Owner]
	if r == nil {
		d.nextGen++
		r = &reservation{generation: d.nextGen, pending: true}
		d.reserved[pod.Owner] = r
	}
	r.Addresses = append(r.Addresses, pod.IP)
	gen, pending := r.generation, r.pending
	d.mu.Unlock()
	d.notify(pod.Owner)

	if !pending {
		return nil
	}
	info, err := d.collector.Collect(ctx, pod.IP)
	if err != nil {
		return err
	}

	d.mu.Lock()
	defer d.mu.Unlock()
	if cur := d.reserved[pod.Owner]; cur != nil && cur.generation == gen {
		cur.Info = info
		cur.pending = false
	}
	return nil
}

// Rename reads under the read lock, finds the record missing, and then
// gives up the same way under the write lock: both paths agree that a
// missing record is an error, so the re-check is sound.
func (d *Directory) Rename(owner string, routes []string) error {
	d.mu.RLock()
	record := d.records[owner]
	d.mu.RUnlock()
	if record == nil {
		return errNoRecord
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	_, err := d.setREST(owner, routes)
	return err
}

// Snapshot only reads.
func (d *Directory) Snapshot() map[string][]string {
	d.mu.RLock()
	defer d.mu.RUnlock()
	out := make(map[string][]string, len(d.records))
	for owner, r := range d.records {
		out[owner] = append([]string(nil), r.Addresses...)
	}
	return out
}

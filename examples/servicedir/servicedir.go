// Package servicedir is a small service directory with the lock-upgrade
// bug lockgap was built for. Run lockgap here to see it reported.
package servicedir

import "sync"

type Record struct{ Addresses []string }

type Directory struct {
	mu      sync.RWMutex
	records map[string]*Record
}

// Add decides under the read lock that the owner's record exists, and acts
// on that decision under the write lock. If the record was removed in
// between, the update is silently dropped.
func (d *Directory) Add(owner, ip string) bool {
	d.mu.RLock()
	record := d.records[owner]
	d.mu.RUnlock()
	if record == nil {
		d.create(owner, ip)
		return true
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.addAddress(owner, ip)
}

func (d *Directory) create(owner, ip string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.records[owner] == nil {
		d.records[owner] = &Record{Addresses: []string{ip}}
	}
}

func (d *Directory) addAddress(owner, ip string) bool {
	record := d.records[owner]
	if record == nil {
		return false
	}
	record.Addresses = append(record.Addresses, ip)
	return true
}

// Lookup fills a cache without a re-check: lockgap offers a fix.
func (d *Directory) Lookup(owner string) *Record {
	d.mu.RLock()
	r, ok := d.records[owner]
	d.mu.RUnlock()
	if ok {
		return r
	}
	r = &Record{}
	d.mu.Lock()
	d.records[owner] = r
	d.mu.Unlock()
	return r
}

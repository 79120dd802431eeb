// Package servicedir models a control plane's service directory: pods are
// grouped by their owner, and the metadata of an owner is collected with a
// slow remote call.
package servicedir

import (
	"context"
	"errors"
	"fmt"
	"sync"
)

type Pod struct {
	UID   string
	Owner string
	IP    string
}

type Info struct{ Methods []string }

type Record struct {
	Addresses []string
	Info      Info
	REST      []string
}

type Collector interface {
	Collect(ctx context.Context, addr string) (Info, error)
}

type Directory struct {
	mu        sync.RWMutex
	records   map[string]*Record
	collector Collector
	notify    func(owner string)
}

// AddPod is the seed's ExtractFromPod: the decision "the owner's record
// exists, so only add the address" is taken under the read lock and acted
// on under the write lock, after a window in which the last pod of the
// owner may be removed (and with it the record).
func (d *Directory) AddPod(ctx context.Context, pod Pod) error {
	d.mu.RLock()
	record := d.records[pod.Owner]
	d.mu.RUnlock()

	var created bool
	if record == nil {
		var err error
		created, err = d.createRecord(ctx, pod)
		if err != nil {
			return err
		}
	}

	d.mu.Lock() // want `d.mu is locked again for writing after RUnlock: record was present under the read lock; if it is removed before the lock is taken again, the re-check there gives up quietly and the update is lost`
	updated := created || d.addAddress(pod)
	d.mu.Unlock()
	if updated {
		d.notify(pod.Owner)
	}
	return nil
}

// createRecord collects metadata remotely, then inserts the record under
// the write lock. It re-checks correctly: a record created meanwhile wins.
func (d *Directory) createRecord(ctx context.Context, pod Pod) (bool, error) {
	info, err := d.collector.Collect(ctx, pod.IP)
	if err != nil {
		return false, err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.records[pod.Owner] != nil {
		return false, nil
	}
	d.records[pod.Owner] = &Record{Addresses: []string{pod.IP}, Info: info}
	return true, nil
}

// addAddress runs under d.mu. It re-reads the record but gives up quietly
// when it is gone: that is not a re-check of AddPod's decision.
func (d *Directory) addAddress(pod Pod) bool {
	record := d.records[pod.Owner]
	if record == nil {
		return false
	}
	for _, a := range record.Addresses {
		if a == pod.IP {
			return false
		}
	}
	record.Addresses = append(record.Addresses, pod.IP)
	return true
}

// RemovePod deletes the owner's record with its last address.
func (d *Directory) RemovePod(pod Pod) {
	d.mu.Lock()
	defer d.mu.Unlock()
	record := d.records[pod.Owner]
	if record == nil {
		return
	}
	kept := record.Addresses[:0]
	for _, a := range record.Addresses {
		if a != pod.IP {
			kept = append(kept, a)
		}
	}
	record.Addresses = kept
	if len(kept) == 0 {
		delete(d.records, pod.Owner)
	}
}

// SetRoutes is the seed's createOrUpdateRecordWithREST: the same stale
// decision, with the update under a deferred Lock returning an error when
// the record vanished; the routes are lost.
func (d *Directory) SetRoutes(ctx context.Context, owner string, pods []Pod, routes []string) (bool, error) {
	d.mu.RLock()
	record := d.records[owner]
	d.mu.RUnlock()

	var updated bool
	if record == nil && len(pods) > 0 {
		var err error
		updated, err = d.createRecord(ctx, pods[0])
		if err != nil {
			return false, err
		}
	}

	d.mu.Lock() // want `d.mu is locked again for writing after RUnlock: record was present under the read lock`
	defer d.mu.Unlock()
	for _, pod := range pods {
		u := d.addAddress(pod)
		updated = updated || u
	}
	u, err := d.setREST(owner, routes)
	if err != nil {
		return updated, err
	}
	return updated || u, nil
}

var errNoRecord = errors.New("service record not found")

// setREST runs under d.mu and fails when the record is missing.
func (d *Directory) setREST(owner string, routes []string) (bool, error) {
	record := d.records[owner]
	if record == nil {
		return false, fmt.Errorf("%w: %s", errNoRecord, owner)
	}
	record.REST = routes
	return true, nil
}

package checkthenact

import (
	"sync"
	"time"
)

// Objects share one metadata lock; each keeps its metadata in a map with
// a few well-known keys.
var metaMu sync.Mutex

const (
	stampKey  = "stamp"
	folderKey = "folder"
)

type Blob struct {
	meta map[string]string
}

type uploadPlan struct {
	folder bool
	stamp  time.Time
}

// setStamp records the time under its own key.
func (b *Blob) setStamp(t time.Time) {
	metaMu.Lock()
	defer metaMu.Unlock()
	if b.meta == nil {
		b.meta = make(map[string]string, 1)
	}
	b.meta[stampKey] = t.Format(time.RFC3339)
}

// plan fills in what an upload needs; the time depends on the plan.
func plan(p *uploadPlan, now time.Time) time.Time {
	if p.folder {
		return time.Time{}
	}
	p.stamp = now
	return now
}

// Prepare reads the folder marker and, later, stamps the time: an entry
// under another constant key than the one read, which the marker's own
// changes cannot touch, as with two fields.
func (b *Blob) Prepare(now time.Time) bool {
	var p uploadPlan
	metaMu.Lock()
	_, p.folder = b.meta[folderKey]
	metaMu.Unlock()
	b.setStamp(plan(&p, now))
	return p.folder
}

// setFolder records the marker's value under the marker's own key.
func (b *Blob) setFolder(v string) {
	metaMu.Lock()
	defer metaMu.Unlock()
	b.meta[folderKey] = v
}

// Toggle writes back under the key it read, from what it read: a marker
// set or cleared in between is overwritten.
func (b *Blob) Toggle() {
	metaMu.Lock()
	v := b.meta[folderKey]
	metaMu.Unlock()
	if v == "" {
		v = "true"
	}
	b.setFolder(v + "") // want `metaMu is locked again by b.setFolder after the section that checked: the value written derives from v`
}

// setMeta records v under a key the caller names.
func (b *Blob) setMeta(k, v string) {
	metaMu.Lock()
	defer metaMu.Unlock()
	b.meta[k] = v
}

// Mirror copies the marker under a key the caller chooses, which may be
// the marker's own.
func (b *Blob) Mirror(k string) {
	metaMu.Lock()
	v := b.meta[folderKey]
	metaMu.Unlock()
	b.setMeta(k, v+"!") // want `metaMu is locked again by b.setMeta after the section that checked: the value written derives from v`
}

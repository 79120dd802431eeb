package helpers

import "sync"

// Previews holds rendered document previews, at most max of them; keep
// stores one, under the write lock, dropping another first when full.
type Previews struct {
	mu       sync.RWMutex
	byDoc    map[string][]byte
	max      int
	eager    bool // fixed at construction: render every miss
	fromDisk func(doc string) ([]byte, error)
	render   func(doc string) []byte
}

func (p *Previews) keep(doc string, img []byte) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.byDoc) >= p.max {
		for d := range p.byDoc {
			delete(p.byDoc, d)
			break
		}
	}
	p.byDoc[doc] = img
}

// Miss handles a document the cache lacks. Disk is tried when previews
// are eager, or when the cache is close to full (keep may have dropped
// this one). The count only says whether the disk is worth a look: when
// it went stale, it overstated the fill, the look is one the document
// needs anyway, and keep weighs the room again under the lock. Rendering
// runs only for eager previews, whatever the count said. Silent.
func (p *Previews) Miss(doc string) []byte {
	p.mu.RLock()
	filled := len(p.byDoc)
	p.mu.RUnlock()
	crowded := p.max > 0 && float64(filled) >= float64(p.max)*0.8
	tryDisk := p.eager || crowded
	if tryDisk {
		if img, err := p.fromDisk(doc); err == nil {
			p.keep(doc, img)
			return img
		}
		if p.eager {
			img := p.render(doc)
			p.keep(doc, img)
			return img
		}
	}
	return nil
}

// Prefetch renders ahead only while the cache has room to spare; the
// count it judged by is stale by the time keep runs, and racers that all
// saw room each add one.
func (p *Previews) Prefetch(doc string) {
	p.mu.RLock()
	filled := len(p.byDoc)
	p.mu.RUnlock()
	spare := !(filled >= p.max/2)
	if spare {
		p.store(doc, p.render(doc)) // want `p.mu is locked again for writing by p.store after RUnlock: the write is decided by filled, read under the read lock`
	}
}

// store adds a preview without making room.
func (p *Previews) store(doc string, img []byte) {
	p.mu.Lock()
	p.byDoc[doc] = img
	p.mu.Unlock()
}

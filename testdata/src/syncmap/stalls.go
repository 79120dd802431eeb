package syncmap

import (
	"errors"
	"sync"
	"time"
)

var errStalled = errors.New("backend stalled recently")

// stalls marks the backends whose reads stalled, until when to skip
// them; a read that works clears the mark. The clear runs only where the
// Load found no live mark, before a read that may take long: a mark that
// another caller's stalled read stored meanwhile is cleared with it.
// Reported, worded as a removal (no LoadOrStore advice, no fix).
var stalls sync.Map // backend -> time.Time

func readHeader(backend string, read func() ([]byte, error)) ([]byte, error) {
	if until, ok := stalls.Load(backend); ok && time.Now().Before(until.(time.Time)) {
		return nil, errStalled
	}
	b, err := read()
	if err == nil {
		stalls.Delete(backend) // want `stalls.Delete removes what stalls.Load found missing or stale, but another goroutine may have stored an entry since and this removes it; remove only the entry seen, with stalls.CompareAndDelete`
		return b, nil
	}
	stalls.Store(backend, time.Now().Add(time.Minute))
	return nil, err
}

// stallTable is the same with a mutex over a plain map.
type stallTable struct {
	mu    sync.Mutex
	until map[string]time.Time
}

func (t *stallTable) readHeader(backend string, read func() ([]byte, error)) ([]byte, error) {
	t.mu.Lock()
	until, ok := t.until[backend]
	t.mu.Unlock()
	if ok && time.Now().Before(until) {
		return nil, errStalled
	}
	b, err := read()
	if err == nil {
		t.mu.Lock() // want `t.mu is locked again after the section that checked: the removal is decided by until, read in an earlier section, and an entry stored since would be removed`
		delete(t.until, backend)
		t.mu.Unlock()
		return b, nil
	}
	t.mu.Lock()
	t.until[backend] = time.Now().Add(time.Minute)
	t.mu.Unlock()
	return nil, err
}

// refresh drops the stale mark and stores a new one in the same section:
// that store is what replaces a mark stored meanwhile, and the message
// says so.
func (t *stallTable) refresh(backend string, probe func() bool) {
	t.mu.Lock()
	_, ok := t.until[backend]
	t.mu.Unlock()
	if ok || probe() {
		return
	}
	t.mu.Lock() // want `t.mu is locked again after the section that checked: t.until\[backend\] was missing in an earlier section, but another goroutine may have stored one since and this store replaces it`
	delete(t.until, backend)
	t.until[backend] = time.Now().Add(time.Minute)
	t.mu.Unlock()
}

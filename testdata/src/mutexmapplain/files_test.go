package mutexmapplain

import (
	"sync"
	"testing"
)

// forgetLocked drops a path's lock the way the test teardown needs.
func forgetLocked(path string) {
	fileLocksMu.Lock()
	delete(fileLocks, path) // want `per-key mutex removed from fileLocks by delete`
	fileLocksMu.Unlock()
}

// TestRewriteTwice clears its own path's lock in Cleanup, which runs once
// the test and everything it waited for are done. Silent.
func TestRewriteTwice(t *testing.T) {
	path := "/tmp/" + t.Name()
	t.Cleanup(func() {
		fileLocksMu.Lock()
		delete(fileLocks, path)
		fileLocksMu.Unlock()
	})
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = Rewrite(path, func() error { return nil })
		}()
	}
	wg.Wait()
}

// TestRewriteWhileForgetting drops the lock while its writers may still
// hold it: reported (in the helper that deletes).
func TestRewriteWhileForgetting(t *testing.T) {
	path := "/tmp/" + t.Name()
	done := make(chan struct{})
	go func() {
		_ = Rewrite(path, func() error { return nil })
		close(done)
	}()
	forgetLocked(path)
	<-done
}

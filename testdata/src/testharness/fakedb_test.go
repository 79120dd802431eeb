package testharness

import (
	"sync"
	"testing"
)

// fakeDB answers the code under test from canned results. The tests stage
// those results one step after another on the test's own goroutine, before
// the code under test runs; the code under test only reads them.
type fakeDB struct {
	mu       sync.Mutex
	canned   map[string]string
	executed []string
}

func newFakeDB() *fakeDB {
	return &fakeDB{canned: map[string]string{"ping": "pong"}}
}

func (db *fakeDB) result(query string) string {
	db.mu.Lock()
	defer db.mu.Unlock()
	return db.canned[query]
}

func (db *fakeDB) setResult(query, answer string) {
	db.mu.Lock()
	defer db.mu.Unlock()
	db.canned[query] = answer
}

// Exec is what the code under test calls, on its own goroutines.
func (db *fakeDB) Exec(query string) string {
	db.mu.Lock()
	defer db.mu.Unlock()
	db.executed = append(db.executed, query)
	return db.canned[query]
}

// stageReplica copies one canned answer to another query, as a test helper
// does before it starts the code under test. Silent: every writer of the
// canned answers runs on a test's own goroutine.
func stageReplica(db *fakeDB) {
	db.setResult("replica", db.result("primary"))
}

func TestFailover(t *testing.T) {
	db := newFakeDB()
	db.setResult("primary", "up")
	stageReplica(db)
	// Silent, too: the same copy made inline in the test.
	db.setResult("standby", db.result("primary"))
	done := make(chan string)
	go func() { done <- db.Exec("replica") }()
	if got := <-done; got != "up" {
		t.Fatalf("got %q", got)
	}
}

// fakeQueue is staged the same way, but a goroutine the test starts also
// refills it: the copy can lose the refill. Reported.
type fakeQueue struct {
	mu    sync.Mutex
	items map[string]int
}

func (q *fakeQueue) get(k string) int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.items[k]
}

func (q *fakeQueue) set(k string, n int) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.items[k] = n
}

func TestRefill(t *testing.T) {
	q := &fakeQueue{items: map[string]int{}}
	done := make(chan struct{})
	go func() {
		defer close(done)
		q.set("backlog", 3)
	}()
	q.set("spare", q.get("backlog")) // want `q.mu is locked again by q.set after the section that checked: the value written derives from q.get\("backlog"\)`
	<-done
}

// fakeFlags is staged by subtests that run in parallel with their
// siblings and share the parent's fake: reported.
type fakeFlags struct {
	mu  sync.Mutex
	set map[string]bool
}

func (f *fakeFlags) enabled(name string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.set[name]
}

func (f *fakeFlags) enable(name string, on bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.set[name] = on
}

func TestParallelFlags(t *testing.T) {
	flags := &fakeFlags{set: map[string]bool{"base": true}}
	for _, name := range []string{"a", "b"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			flags.enable(name, flags.enabled("base")) // want `flags.mu is locked again by flags.enable after the section that checked: the value written derives from flags.enabled\("base"\)`
		})
	}
}

// A subtest that does not run in parallel stages the parent's fake while
// the parent waits. Silent.
func TestSequentialFlags(t *testing.T) {
	db := newFakeDB()
	for _, name := range []string{"a", "b"} {
		t.Run(name, func(t *testing.T) {
			db.setResult(name, db.result("primary"))
		})
	}
}

package testharness

import "testing"

// The tests below hold the rules' read lock and call List, which takes it
// again. That hangs only when a writer's Lock comes in between.

// TestMatchAndList adds its rules before it takes the read lock, on its
// own goroutine, and neither it nor the code it calls starts a goroutine
// that could take the write lock meanwhile. Silent.
func TestMatchAndList(t *testing.T) {
	r := &Rules{}
	r.Add("allow")
	r.mu.RLock()
	defer r.mu.RUnlock()
	if !r.matchLocked("allow") {
		t.Fatal("allow not matched")
	}
	if got := r.List(); len(got) != 1 {
		t.Fatalf("%d rules, want 1", len(got))
	}
}

// TestMatchWhileAdding adds a rule from a goroutine of its own while it
// holds the read lock: that Add can queue between the two read locks.
// Reported.
func TestMatchWhileAdding(t *testing.T) {
	r := &Rules{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		r.Add("deny")
	}()
	r.mu.RLock()
	_ = r.matchLocked("deny")
	_ = r.List() // want `r.mu is held for reading here and r.List takes its read lock again`
	r.mu.RUnlock()
	<-done
}

// TestMatchReloaded starts no goroutine itself, but the constructor it
// calls does, and that goroutine takes the write lock on every tick.
// Reported.
func TestMatchReloaded(t *testing.T) {
	r := NewReloadedRules(func() []string { return []string{"allow"} })
	r.mu.RLock()
	defer r.mu.RUnlock()
	_ = r.matchLocked("allow")
	_ = r.List() // want `r.mu is held for reading here and r.List takes its read lock again`
}

// TestMatchNotified adds its rule through AddNotified, whose goroutine
// runs a Notifier's Changed; no Changed of the package takes the rules'
// write lock. Silent.
func TestMatchNotified(t *testing.T) {
	r := &Rules{}
	r.AddNotified("allow", &countingNotifier{})
	r.mu.RLock()
	defer r.mu.RUnlock()
	_ = r.matchLocked("allow")
	_ = r.List()
}

// TestMatchAudited adds its rule through AddAudited, whose goroutine runs
// an Auditor's Audit; the package's trimmingAuditor takes the write lock
// there. Reported.
func TestMatchAudited(t *testing.T) {
	r := &Rules{}
	r.AddAudited("allow", trimmingAuditor{max: 1})
	r.mu.RLock()
	defer r.mu.RUnlock()
	_ = r.matchLocked("allow")
	_ = r.List() // want `r.mu is held for reading here and r.List takes its read lock again`
}

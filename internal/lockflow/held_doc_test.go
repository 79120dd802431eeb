package lockflow

import "testing"

func TestSaysLockHeld(t *testing.T) {
	for doc, want := range map[string]bool{
		"Lock should be held.":                         true,
		"Write lock should be held on entry.":          true,
		"Caller must hold c.mu.":                       true,
		"Must be called with s.mu held.":               true,
		"Both locks should be held.":                   true,
		"No lock held on entry.":                       false,
		"Lock should not be held.":                     false,
		"Lock MUST NOT be held upon entry.":            false,
		"Lock does NOT need to be held, we set it up.": false,
		"Returns the held items.":                      false,
		"Locked version of checking if running.":       false,
		"Lookup returns the entry. It takes the lock.": false,
	} {
		if got := saysLockHeld(doc); got != want {
			t.Errorf("saysLockHeld(%q) = %v, want %v", doc, got, want)
		}
	}
}

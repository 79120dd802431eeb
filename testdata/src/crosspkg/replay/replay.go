// Package replay retries keys until each has gone through, keeping the
// keys still to do in a keyset.Set.
package replay

import (
	"time"

	"crosspkg/keyset"
)

func try(key string) error {
	if key == "" {
		return errEmpty
	}
	return nil
}

type replayError string

func (e replayError) Error() string { return string(e) }

const errEmpty = replayError("empty key")

// Retry makes its own set and only calls methods on it that keep it
// local: no one else can act between Size and Remove. Silent.
func Retry(keys []string) {
	pending := keyset.New()
	pending.Add(keys...)
	for pending.Size() != 0 {
		for _, k := range pending.Items() {
			if try(k) == nil {
				pending.Remove(k)
			}
		}
	}
}

// RetryExpiring has the set sweep its old keys: the sweeper can remove
// keys between Size and Remove. Reported.
func RetryExpiring(keys []string) {
	pending := keyset.New()
	pending.Add(keys...)
	pending.ExpireAfter(time.Minute)
	for pending.Size() != 0 {
		for _, k := range pending.Items() {
			if try(k) == nil {
				pending.Remove(k) // want `pending.mu is locked again for writing by pending.Remove after RUnlock`
			}
		}
	}
}

// RetryWatched hands the set to the package's metrics. Reported.
func RetryWatched(keys []string) {
	pending := keyset.New()
	pending.Add(keys...)
	pending.Watch()
	for pending.Size() != 0 {
		for _, k := range pending.Items() {
			if try(k) == nil {
				pending.Remove(k) // want `pending.mu is locked again for writing by pending.Remove after RUnlock`
			}
		}
	}
}

// RetryReported sends the set to whoever shows progress. Reported.
func RetryReported(keys []string, progress chan<- *keyset.Set) {
	pending := keyset.New()
	pending.Add(keys...)
	progress <- pending
	for pending.Size() != 0 {
		for _, k := range pending.Items() {
			if try(k) == nil {
				pending.Remove(k) // want `pending.mu is locked again for writing by pending.Remove after RUnlock`
			}
		}
	}
}

// RetryGiven works on the caller's set, which others may hold. Reported.
func RetryGiven(pending *keyset.Set) {
	for pending.Size() != 0 {
		for _, k := range pending.Items() {
			if try(k) == nil {
				pending.Remove(k) // want `pending.mu is locked again for writing by pending.Remove after RUnlock`
			}
		}
	}
}

// RetryShared works on the set every caller of keyset.Shared gets: not
// one it made, though it never hands it on either. Reported.
func RetryShared(keys []string) {
	pending := keyset.Shared()
	pending.Add(keys...)
	for pending.Size() != 0 {
		for _, k := range pending.Items() {
			if try(k) == nil {
				pending.Remove(k) // want `pending.mu is locked again for writing by pending.Remove after RUnlock`
			}
		}
	}
}

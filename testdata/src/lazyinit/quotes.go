package lazyinit

import "sync"

// Quotes caches the quote for the latest head. Fetching is slow, so one
// fetch runs at a time under fetchMu, and the cache is checked again once
// fetchMu is held: whoever waited behind a fetch finds its result.
type Quotes struct {
	fetchMu sync.Mutex
	mu      sync.RWMutex
	head    string
	quote   int
	fetch   func(head string) int
	fetches int
}

// Quote double-checks under the fetch lock, which every writer of the
// cache holds: silent.
func (q *Quotes) Quote(head string) int {
	q.mu.RLock()
	last, quote := q.head, q.quote
	q.mu.RUnlock()
	if last == head {
		return quote
	}
	q.fetchMu.Lock()
	defer q.fetchMu.Unlock()

	q.mu.RLock()
	last, quote = q.head, q.quote
	q.mu.RUnlock()
	if last == head {
		return quote
	}
	quote = q.fetch(head)
	q.mu.Lock()
	q.head, q.quote = head, quote
	q.fetches++
	q.mu.Unlock()
	return quote
}

// QuoteEarly checks again, but lets go of the fetch lock before storing:
// two fetchers both pass the second check and both count a fetch.
func (q *Quotes) QuoteEarly(head string) int {
	q.mu.RLock()
	last := q.head
	q.mu.RUnlock()
	if last == head {
		return q.cached()
	}
	q.fetchMu.Lock()
	q.mu.RLock()
	last = q.head
	q.mu.RUnlock()
	q.fetchMu.Unlock()
	if last == head {
		return q.cached()
	}
	quote := q.fetch(head)
	q.mu.Lock() // want `q.mu is locked again for writing after RUnlock: the write is decided by last`
	q.head, q.quote = head, quote
	q.fetches++
	q.mu.Unlock()
	return quote
}

func (q *Quotes) cached() int {
	q.mu.RLock()
	defer q.mu.RUnlock()
	return q.quote
}

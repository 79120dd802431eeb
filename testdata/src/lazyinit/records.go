package lazyinit

import "sync"

// Balance is a record: plain fields and a slice of plain values.
type Balance struct {
	Owner   string
	Amount  uint64
	History []uint64
}

type Ledger interface {
	Balance(owner string) (*Balance, error)
}

// Balances memoises records loaded by owner from a ledger fixed for its
// lifetime: two racers load equal records and one replaces the other with
// its equal. Silent.
type Balances struct {
	ledger Ledger
	mu     sync.RWMutex
	byName map[string]*Balance
}

func (b *Balances) Get(owner string) (*Balance, error) {
	b.mu.RLock()
	bal, ok := b.byName[owner]
	b.mu.RUnlock()
	if ok {
		return bal, nil
	}
	bal, err := b.ledger.Balance(owner)
	if err != nil {
		return nil, err
	}
	b.mu.Lock()
	b.byName[owner] = bal
	b.mu.Unlock()
	return bal, nil
}

// Feed is not a record: it has a channel its subscribers wait on, so a
// replaced feed strands them.
type Feed struct {
	Owner   string
	updates chan uint64
}

type Feeds interface {
	Open(owner string) (*Feed, error)
}

type Subscriptions struct {
	feeds  Feeds
	mu     sync.RWMutex
	byName map[string]*Feed
}

func (s *Subscriptions) Get(owner string) (*Feed, error) {
	s.mu.RLock()
	f, ok := s.byName[owner]
	s.mu.RUnlock()
	if ok {
		return f, nil
	}
	f, err := s.feeds.Open(owner)
	if err != nil {
		return nil, err
	}
	s.mu.Lock() // want `s.mu is locked again for writing after RUnlock: f was missing under the read lock`
	s.byName[owner] = f
	s.mu.Unlock()
	return f, nil
}

package lazyinit

import "sync"

// A topic registry hands out handles that wrap the topic they found or
// created. The lookup runs in a helper under the read lock; the creation
// under the write lock tests the copy the helper returned.
type topic struct {
	subscribers map[string]chan string
}

type TopicHandle struct {
	t    *topic
	name string
}

type topicShard struct {
	sync.RWMutex
	topics map[string]*topic
}

func (s *topicShard) find(name string) *topic {
	s.RLock()
	defer s.RUnlock()
	return s.topics[name]
}

type Topics struct {
	shards [8]*topicShard
}

func (ts *Topics) shard(name string) *topicShard {
	return ts.shards[len(name)%len(ts.shards)]
}

// Open: two callers can both miss, and the second store replaces the
// first caller's topic, whose handle now feeds subscribers no one
// publishes to. The new topic goes back inside the handle. Reported.
func (ts *Topics) Open(name string) *TopicHandle {
	s := ts.shard(name)
	t := s.find(name)
	s.Lock() // want `s is locked again for writing after RUnlock: t was missing under the read lock, but another goroutine may have stored one since and this store replaces it`
	if t == nil {
		t = &topic{subscribers: make(map[string]chan string)}
		s.topics[name] = t
	}
	s.Unlock()
	return &TopicHandle{t: t, name: name}
}

// Touch makes the same fill but hands nothing back: the topic it made is
// used by no one but the map, so a racer's replaced topic was as empty
// as its own. Silent.
func (ts *Topics) Touch(name string) {
	s := ts.shard(name)
	t := s.find(name)
	s.Lock()
	if t == nil {
		t = &topic{subscribers: make(map[string]chan string)}
		s.topics[name] = t
	}
	s.Unlock()
}

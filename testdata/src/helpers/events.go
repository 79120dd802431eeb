package helpers

import "sync"

// A chat client's cache of channels, kept up to date by a dispatcher
// that switches on the type of the event it is handed: it writes the
// cache only for channel events. ChannelName looks a channel up under
// the read lock and, on a miss, asks the server; a refused request is
// dispatched as a rate-limit notice, which writes nothing, so nothing
// written depends on the miss: silent. Refresh dispatches a channel
// event made from what it fetched after the miss: reported. Ping hands
// the dispatcher nil on a miss: no case matches, silent.

type ChannelCreate struct{ ID, Name string }

type ChannelDelete struct{ ID string }

type RateLimited struct{ URL string }

type chatState struct {
	mu       sync.RWMutex
	channels map[string]string
}

func (s *chatState) channel(id string) (string, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	name, ok := s.channels[id]
	return name, ok
}

func (s *chatState) onEvent(ev any) {
	switch e := ev.(type) {
	case *ChannelCreate:
		s.mu.Lock()
		s.channels[e.ID] = e.Name
		s.mu.Unlock()
	case *ChannelDelete:
		s.mu.Lock()
		delete(s.channels, e.ID)
		s.mu.Unlock()
	}
}

type chatClient struct {
	state *chatState
	fetch func(url string) (string, error)
}

func (c *chatClient) dispatch(ev any) { c.state.onEvent(ev) }

func (c *chatClient) request(url string) (string, error) {
	body, err := c.fetch(url)
	if err != nil {
		c.dispatch(&RateLimited{URL: url})
		return "", err
	}
	return body, nil
}

func (c *chatClient) ChannelName(id string) (string, error) {
	if name, ok := c.state.channel(id); ok {
		return name, nil
	}
	return c.request("/channels/" + id)
}

func (c *chatClient) Refresh(id string) error {
	if _, ok := c.state.channel(id); ok {
		return nil
	}
	name, err := c.fetch("/channels/" + id)
	if err != nil {
		return err
	}
	c.dispatch(&ChannelCreate{ID: id, Name: name}) // want `c.state.mu is locked again for writing by c.dispatch after RUnlock`
	return nil
}

// Ping dispatches nothing but a nil event on a miss: no case matches.
// Silent.
func (c *chatClient) Ping(id string) {
	if _, ok := c.state.channel(id); ok {
		return
	}
	c.dispatch(nil)
}

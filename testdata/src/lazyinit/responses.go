package lazyinit

import (
	"sync"

	"google.golang.org/protobuf/runtime/protoimpl"
)

// Caps is shaped like a generated message: the runtime's bookkeeping,
// then plain fields.
type Caps struct {
	state         protoimpl.MessageState
	sizeCache     protoimpl.SizeCache
	unknownFields protoimpl.UnknownFields

	Signals  bool
	Priority bool
}

type InfoResponse struct {
	state protoimpl.MessageState

	Caps *Caps
}

type InfoService interface {
	Info() (*InfoResponse, error)
}

// Client memoises what the server says it can do: racers ask the same
// server and one stores an equal answer over the other's; a server that
// says nothing counts as an empty answer. Silent.
type Client struct {
	srv  InfoService
	mu   sync.RWMutex
	caps *Caps
}

func (c *Client) Capabilities() (*Caps, error) {
	c.mu.RLock()
	caps := c.caps
	c.mu.RUnlock()
	if caps != nil {
		return caps, nil
	}
	resp, err := c.srv.Info()
	if err != nil {
		return nil, err
	}
	if resp.Caps != nil {
		caps = resp.Caps
	} else {
		caps = &Caps{}
	}
	c.mu.Lock()
	c.caps = caps
	c.mu.Unlock()
	return caps, nil
}

// CapabilitiesOrDefault fills in a default it decides itself: a racer's
// answer from the server is replaced by the default.
func (c *Client) CapabilitiesOrDefault(signals bool) (*Caps, error) {
	c.mu.RLock()
	caps := c.caps
	c.mu.RUnlock()
	if caps != nil {
		return caps, nil
	}
	resp, err := c.srv.Info()
	if err != nil {
		return nil, err
	}
	if resp.Caps != nil {
		caps = resp.Caps
	} else {
		caps = &Caps{Signals: signals}
	}
	c.mu.Lock() // want `c.mu is locked again for writing after RUnlock: caps was missing under the read lock`
	c.caps = caps
	c.mu.Unlock()
	return caps, nil
}

type Limits struct {
	state protoimpl.MessageState

	MaxBytes int64
}

type DescribeResponse struct {
	state protoimpl.MessageState

	Caps   *Caps
	Limits *Limits
}

type DescribeService interface {
	Describe(name string) (*DescribeResponse, error)
}

// nsData is assembled from the parts of a response.
type nsData struct {
	caps   *Caps
	limits *Limits
}

// Namespaces memoises one namespace's description, assembled from the
// server's answer with empty parts where it has none: racers store equal
// assemblies. Silent.
type Namespaces struct {
	srv  DescribeService
	name string
	mu   sync.RWMutex
	data *nsData
}

func (n *Namespaces) Get() (nsData, error) {
	n.mu.RLock()
	cached := n.data
	n.mu.RUnlock()
	if cached != nil {
		return *cached, nil
	}
	resp, err := n.srv.Describe(n.name)
	if err != nil {
		return nsData{}, err
	}
	data := nsData{}
	if resp != nil {
		data.caps = resp.Caps
		data.limits = resp.Limits
	}
	if data.caps == nil {
		data.caps = &Caps{}
	}
	n.mu.Lock()
	n.data = &data
	n.mu.Unlock()
	return data, nil
}

// watchedData carries a channel its watchers wait on: replacing it
// strands them.
type watchedData struct {
	caps    *Caps
	changed chan struct{}
}

type Watched struct {
	srv  DescribeService
	name string
	mu   sync.RWMutex
	data *watchedData
}

func (w *Watched) Get() (*watchedData, error) {
	w.mu.RLock()
	cached := w.data
	w.mu.RUnlock()
	if cached != nil {
		return cached, nil
	}
	resp, err := w.srv.Describe(w.name)
	if err != nil {
		return nil, err
	}
	data := watchedData{changed: make(chan struct{})}
	data.caps = resp.Caps
	w.mu.Lock() // want `w.mu is locked again for writing after RUnlock: cached was missing under the read lock`
	w.data = &data
	w.mu.Unlock()
	return &data, nil
}

package syncmap

import "sync"

// registry is a typed wrapper over sync.Map whose Load says "found" with
// a constant on each way out, and which has no LoadOrStore of its own.
type registry[K comparable, V any] struct{ m sync.Map }

func (r *registry[K, V]) Load(k K) (V, bool) {
	v, ok := r.m.Load(k)
	if !ok {
		var zero V
		return zero, false
	}
	return v.(V), true
}

func (r *registry[K, V]) Store(k K, v V) { r.m.Store(k, v) }

func (r *registry[K, V]) Delete(k K) { r.m.Delete(k) }

type codec struct{ name string }

var codecs registry[string, *codec]

// Codec registers a codec the first time a name is asked for: two first
// calls both miss and the second Store replaces the first's codec.
// Reported, pointing at a LoadOrStore the wrapper does not have yet.
func Codec(name string) *codec {
	if c, ok := codecs.Load(name); ok {
		return c
	}
	c := &codec{name: name}
	codecs.Store(name, c) // want `codecs.Store stores what codecs.Load found missing, .*; use codecs.LoadOrStore \(a method to add to the wrapper\) and keep the value it returns`
	return c
}

// Forget deletes a name whether or not it was found: the lookup only
// feeds the result. Silent.
func Forget(name string) bool {
	_, ok := codecs.Load(name)
	codecs.Delete(name)
	return ok
}

// A server's helpers of other names over its own sync.Map: the advice
// names the map, not the server.
type sessionTable struct{ byID sync.Map }

func (s *sessionTable) get(id string) (*codec, bool) {
	v, ok := s.byID.Load(id)
	if !ok {
		return nil, false
	}
	return v.(*codec), true
}

func (s *sessionTable) newSession(id string) *codec {
	c := &codec{name: id}
	s.byID.Store(id, c)
	return c
}

func (s *sessionTable) Session(id string) *codec {
	if c, ok := s.get(id); ok {
		return c
	}
	return s.newSession(id) // want `s.newSession stores what s.get found missing, .*; use s.byID.LoadOrStore and keep the value it returns`
}

var seenJobs registry[string, struct{}]

var seenPlain sync.Map // string -> struct{}

func runJob(string) {}

// RunOnce marks a job seen and runs it. Two callers that both miss both
// run it: a claim made with a constant, which is a true finding. A known
// miss: a constant store counts as a set's mark that a racer may have
// set too, through the wrapper and directly alike (RunOncePlain).
func RunOnce(id string) {
	if _, ok := seenJobs.Load(id); ok {
		return
	}
	seenJobs.Store(id, struct{}{})
	runJob(id)
}

// RunOncePlain is RunOnce on a sync.Map: the same known miss.
func RunOncePlain(id string) {
	if _, ok := seenPlain.Load(id); ok {
		return
	}
	seenPlain.Store(id, struct{}{})
	runJob(id)
}

package workers

import cache "github.com/patrickmn/go-cache"

// A resolver whose refresh goroutine, started once by its constructor,
// is the only writer of its answers cache: it looks a name up and
// stores what it resolved when the name is missing. Request handlers
// write another cache of the same type (names not found), kept in
// another field: they never touch the answers. Silent. The twin lets
// callers prime answers from any goroutine: reported.
type Resolver struct {
	answers *cache.Cache
	misses  *cache.Cache
	names   chan string
	resolve func(string) string
}

func NewResolver(resolve func(string) string) *Resolver {
	r := &Resolver{answers: cache.New(), misses: cache.New(), names: make(chan string), resolve: resolve}
	go r.refresh()
	return r
}

func (r *Resolver) refresh() {
	for name := range r.names {
		if _, ok := r.answers.Get(name); ok {
			continue
		}
		r.answers.Set(name, r.resolve(name))
	}
}

func (r *Resolver) NotFound(name string) { r.misses.Set(name, true) }

type PrimedResolver struct {
	answers *cache.Cache
	names   chan string
	resolve func(string) string
}

func NewPrimedResolver(resolve func(string) string) *PrimedResolver {
	r := &PrimedResolver{answers: cache.New(), names: make(chan string), resolve: resolve}
	go r.refresh()
	return r
}

func (r *PrimedResolver) refresh() {
	for name := range r.names {
		if _, ok := r.answers.Get(name); ok {
			continue
		}
		r.answers.Set(name, r.resolve(name)) // want `r.answers.mu is locked again for writing by r.answers.Set after RUnlock`
	}
}

// Prime stores an answer known ahead of time.
func (r *PrimedResolver) Prime(name, addr string) { r.answers.Set(name, addr) }

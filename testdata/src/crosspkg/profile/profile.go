// Package profile keeps users' credentials. Profile makes its mutex on
// first use with no lock held, a lock only ever meant for a profile one
// request owns: lockgap stays silent on its sections, here and in
// package signup, which sees the lazy lock through a fact. Account makes
// its mutex in its constructor, and Group under a lock: both are
// reported.
package profile

import "sync"

type Credential struct {
	Kind    string
	Secrets []string
}

// Profile is loaded for one request and dropped with it.
type Profile struct {
	ID    string
	creds map[string]Credential
	l     *sync.RWMutex
}

func (p *Profile) lock() *sync.RWMutex {
	if p.l == nil {
		p.l = new(sync.RWMutex)
	}
	return p.l
}

func (p *Profile) Credential(kind string) (Credential, bool) {
	p.lock().RLock()
	defer p.lock().RUnlock()
	c, ok := p.creds[kind]
	return c, ok
}

func (p *Profile) SetCredential(kind string, c Credential) {
	p.lock().Lock()
	defer p.lock().Unlock()
	if p.creds == nil {
		p.creds = map[string]Credential{}
	}
	p.creds[kind] = c
}

func (p *Profile) AddSecret(kind, secret string) {
	c, _ := p.Credential(kind)
	c.Secrets = append(c.Secrets, secret)
	p.SetCredential(kind, c)
}

// Account is shared: its constructor makes the mutex before anyone else
// can reach it.
type Account struct {
	creds map[string]Credential
	l     *sync.RWMutex
}

func NewAccount() *Account {
	return &Account{creds: map[string]Credential{}, l: new(sync.RWMutex)}
}

func (a *Account) Credential(kind string) (Credential, bool) {
	a.l.RLock()
	defer a.l.RUnlock()
	c, ok := a.creds[kind]
	return c, ok
}

func (a *Account) SetCredential(kind string, c Credential) {
	a.l.Lock()
	defer a.l.Unlock()
	a.creds[kind] = c
}

func (a *Account) AddSecret(kind, secret string) {
	c, _ := a.Credential(kind)
	c.Secrets = append(c.Secrets, secret)
	a.SetCredential(kind, c) // want `a.l is locked again for writing by a.SetCredential after RUnlock`
}

// Group makes its mutex on first use too, but in a helper that runs only
// under the registry's lock: every goroutine gets the same mutex, so a
// group can be shared.
type Group struct {
	creds map[string]Credential
	l     *sync.RWMutex
}

var (
	groupsMu sync.Mutex
	groups   = map[string]*Group{}
)

func (g *Group) ensureLock() {
	if g.l == nil {
		g.l = new(sync.RWMutex)
	}
}

func LookupGroup(name string) *Group {
	groupsMu.Lock()
	defer groupsMu.Unlock()
	g := groups[name]
	if g == nil {
		g = &Group{creds: map[string]Credential{}}
		groups[name] = g
	}
	g.ensureLock()
	return g
}

func (g *Group) Credential(kind string) (Credential, bool) {
	g.l.RLock()
	defer g.l.RUnlock()
	c, ok := g.creds[kind]
	return c, ok
}

func (g *Group) SetCredential(kind string, c Credential) {
	g.l.Lock()
	defer g.l.Unlock()
	g.creds[kind] = c
}

func (g *Group) AddSecret(kind, secret string) {
	c, _ := g.Credential(kind)
	c.Secrets = append(c.Secrets, secret)
	g.SetCredential(kind, c) // want `g.l is locked again for writing by g.SetCredential after RUnlock`
}

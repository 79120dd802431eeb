package syncmap

import (
	"crypto/rand"
	"encoding/hex"
	"strings"
	"sync"
)

// A web console keeps browser sessions by cookie. A request whose cookie
// names no session starts one under a new random id: the entry it fills
// is not the one it found missing, so two racing logins make two
// sessions and neither replaces the other. Silent, whether the lookup
// and the store are inline or in helpers. Where the key stored is the key
// looked up, or comes from the same values, the fill can replace a
// racer's entry and is reported.

type browserSession struct {
	id, user string
}

type console struct {
	sessions sync.Map // cookie -> *browserSession
	accounts sync.Map // user name -> *account
}

type account struct{ name string }

func (c *console) session(cookie string) *browserSession {
	v, ok := c.sessions.Load(cookie)
	if !ok {
		return nil
	}
	return v.(*browserSession)
}

func (c *console) newSessionID() string {
	raw := make([]byte, 16)
	_, _ = rand.Read(raw)
	return "sess-" + hex.EncodeToString(raw)
}

func (c *console) startSession(user string) *browserSession {
	s := &browserSession{id: c.newSessionID(), user: user}
	c.sessions.Store(s.id, s)
	return s
}

// Login finds the cookie's session or starts a new one.
func (c *console) Login(cookie, user string) *browserSession {
	if s := c.session(cookie); s != nil {
		return s
	}
	return c.startSession(user)
}

// LoginInline does the same without the helpers.
func (c *console) LoginInline(cookie, user string) *browserSession {
	if v, ok := c.sessions.Load(cookie); ok {
		return v.(*browserSession)
	}
	s := &browserSession{id: c.newSessionID(), user: user}
	c.sessions.Store(s.id, s)
	return s
}

// Resume stores under the cookie it found missing: a racer's session for
// that cookie is replaced.
func (c *console) Resume(cookie, user string) *browserSession {
	if s := c.session(cookie); s != nil {
		return s
	}
	s := &browserSession{id: cookie, user: user}
	c.sessions.Store(s.id, s) // want `c.sessions.Store stores what c.session found missing`
	return s
}

// Register looks the account up by its folded name and stores it under
// the name folded again: the same entry, computed twice.
func (c *console) Register(name string) *account {
	if v, ok := c.accounts.Load(strings.ToLower(name)); ok {
		return v.(*account)
	}
	a := &account{name: name}
	c.accounts.Store(strings.ToLower(name), a) // want `c.accounts.Store stores what c.accounts.Load found missing`
	return a
}

func (c *console) addAccount(a *account) {
	c.accounts.Store(a.name, a)
}

// Adopt looks up the account's own name and stores it through a helper
// that keys it by that name.
func (c *console) Adopt(a *account) {
	if _, ok := c.accounts.Load(a.name); ok {
		return
	}
	c.addAccount(a) // want `c.addAccount stores what c.accounts.Load found missing`
}

// request carries the browser's cookie.
type request struct{ cookie string }

func (c *console) requestSession(r *request) *browserSession {
	v, ok := c.sessions.Load(r.cookie)
	if !ok {
		return nil
	}
	return v.(*browserSession)
}

func (c *console) keepSession(r *request, user string) *browserSession {
	s := &browserSession{id: r.cookie, user: user}
	c.sessions.Store(r.cookie, s)
	return s
}

// Serve looks the request's cookie up in a helper and starts a session
// under a new id in another: silent.
func (c *console) Serve(r *request, user string) *browserSession {
	if s := c.requestSession(r); s != nil {
		return s
	}
	return c.startSession(user)
}

// ServeSticky keeps the new session under the request's cookie, the
// entry found missing: reported.
func (c *console) ServeSticky(r *request, user string) *browserSession {
	if s := c.requestSession(r); s != nil {
		return s
	}
	return c.keepSession(r, user) // want `c.keepSession stores what c.requestSession found missing`
}

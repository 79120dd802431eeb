package checkthenactfix

import "sync"

// A token fetched once and shared, double-checked on the copy; the fix
// reads the field into the copy again before the second test.

type Tokens struct {
	mu    sync.Mutex
	token string
	fetch func() string
}

func (t *Tokens) Token() string {
	t.mu.Lock()
	tok := t.token
	t.mu.Unlock()
	if tok != "" {
		return tok
	}
	fresh := t.fetch()
	t.mu.Lock() // want `t.mu is locked again after the section that checked: tok, the copy of t.token made in an earlier section, is tested again in this section`
	defer t.mu.Unlock()
	if tok == "" {
		t.token = fresh
		return fresh
	}
	return tok
}

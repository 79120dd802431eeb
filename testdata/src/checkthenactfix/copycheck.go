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
	t.mu.Lock() // want `t.mu is locked again after the section that checked: tok, set from t.token in an earlier section, is tested again in this section`
	defer t.mu.Unlock()
	if tok == "" {
		t.token = fresh
		return fresh
	}
	return tok
}

// A bounded queue whose second bound check tests the length counted in
// the first section.
type Backlog struct {
	mu    sync.Mutex
	items []string
	max   int
}

func (b *Backlog) Push(item string) bool {
	b.mu.Lock()
	n := len(b.items)
	b.mu.Unlock()
	if n >= b.max {
		return false
	}
	b.mu.Lock() // want `b.mu is locked again after the section that checked: n, set from len\(b.items\) in an earlier section, is tested again in this section; it cannot have changed, so the re-check never sees what another goroutine did; set n from len\(b.items\) again in this section before testing it`
	defer b.mu.Unlock()
	if n >= b.max {
		return false
	}
	b.items = append(b.items, item)
	return true
}

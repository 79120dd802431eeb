// Package boltish wraps a key-value store the way applications wrap
// bbolt: transactions run a function the caller hands over. It takes no
// lock of its own; what matters to its callers is when their function
// runs.
package boltish

type Tx struct{ data map[string]string }

func (tx *Tx) Get(k string) string { return tx.data[k] }

type DB struct {
	data     map[string]string
	watchers []func(*Tx) error
}

// View runs fn before it returns, through a retry helper and a closure:
// a function handed to it runs on the caller's goroutine.
func (db *DB) View(fn func(*Tx) error) error { // want View:`calls back \[0\]`
	return retry(func() error {
		defer db.checkpoint(nil)
		return fn(&Tx{data: db.data})
	})
}

func retry(op func() error) error { // want retry:`calls back \[0\]`
	var err error
	for range 3 {
		if err = op(); err == nil {
			return nil
		}
	}
	return err
}

// checkpoint calls its hook if there is one.
func (db *DB) checkpoint(hook func()) { // want checkpoint:`calls back \[0\]`
	if hook != nil {
		hook()
	}
}

// ViewLater runs fn on a goroutine of its own: not called back.
func (db *DB) ViewLater(fn func(*Tx) error) {
	go func() { _ = fn(&Tx{data: db.data}) }()
}

// Watch keeps fn to call on every change: not called back either.
func (db *DB) Watch(fn func(*Tx) error) {
	db.watchers = append(db.watchers, fn)
}

type Node struct{ Kids []*Node }

// Walk visits n and its descendants, handing visit down the recursion:
// called back.
func Walk(n *Node, visit func(*Node)) { // want Walk:`calls back \[1\]`
	visit(n)
	for _, k := range n.Kids {
		Walk(k, visit)
	}
}

// Keep hands hook to Stash, which keeps it: neither calls it back.
func Keep(db *DB, hook func(*Tx) error) { Stash(db, hook) }

func Stash(db *DB, hook func(*Tx) error) {
	if hook != nil {
		Keep(db, hook)
		db.watchers = append(db.watchers, hook)
	}
}

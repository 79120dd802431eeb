// Package watch keeps the kubeconfig path of each remote cluster and
// tells the file watcher about it. The event handlers it registers read
// the path under the read lock and set it under the write lock: known
// false in its program, where the handlers are predicates of one
// informer, whose events one goroutine delivers one at a time (which
// goroutine runs what). The handlers are function values handed to a
// framework, so this package cannot tell where they run.
package watch

import "sync"

type Cluster struct {
	Name       string
	Kubeconfig string
}

// Handlers is what a framework calls for each event, one at a time.
type Handlers struct {
	OnAdd    func(*Cluster) bool
	OnDelete func(*Cluster) bool
}

type Watcher struct {
	mu    sync.RWMutex
	paths map[string]string
	watch func(path string)
}

func NewWatcher(watch func(string)) *Watcher {
	return &Watcher{paths: make(map[string]string), watch: watch}
}

func (w *Watcher) path(name string) string {
	w.mu.RLock()
	defer w.mu.RUnlock()
	return w.paths[name]
}

func (w *Watcher) addOrUpdate(c *Cluster) bool {
	old := w.path(c.Name)
	if old == c.Kubeconfig {
		return true
	}
	w.mu.Lock() // want `w.mu is locked again for writing after RUnlock: the write is decided by old`
	w.paths[c.Name] = c.Kubeconfig
	w.mu.Unlock()
	w.watch(c.Kubeconfig)
	return true
}

func (w *Watcher) remove(c *Cluster) bool {
	w.mu.Lock()
	delete(w.paths, c.Name)
	w.mu.Unlock()
	return true
}

// Handlers returns the predicates to register with the informer.
func (w *Watcher) Handlers() Handlers {
	return Handlers{OnAdd: w.addOrUpdate, OnDelete: w.remove}
}

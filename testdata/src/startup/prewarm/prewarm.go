// Package prewarm fills a registry from init, but its init also starts a
// goroutine that fills it: the registration that runs only from init
// races it all the same.
package prewarm

import "sync"

type usage struct {
	size  int
	users map[string]bool
}

var (
	mu    sync.RWMutex
	sizes = map[string]*usage{}
)

func remember(name string, size int) {
	mu.RLock()
	_, known := sizes[name]
	mu.RUnlock()
	if known {
		return
	}
	u := &usage{size: size, users: map[string]bool{}}
	mu.Lock() // want `mu is locked again for writing after RUnlock: sizes\[name\] was missing under the read lock`
	sizes[name] = u
	mu.Unlock()
}

// measure runs beside the rest of init and stores entries of its own.
func measure() {
	for _, n := range []string{"a", "b"} {
		mu.Lock()
		sizes[n] = &usage{size: len(n), users: map[string]bool{}}
		mu.Unlock()
	}
}

func init() {
	go measure()
	remember("a", 1)
}

func Size(name string) int {
	mu.RLock()
	defer mu.RUnlock()
	if u := sizes[name]; u != nil {
		return u.size
	}
	return 0
}

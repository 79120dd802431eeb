package checkthenact

import (
	"errors"
	"path"
	"sync"

	"golang.org/x/sync/errgroup"
)

var errUnreadable = errors.New("unreadable")

func readDir(dir string, files []string) error {
	if len(files) > 64 {
		return errUnreadable
	}
	return nil
}

type dirFunc func(dir string, files []string)

func eachDir(dirs map[string][]string, f dirFunc) {
	for dir, files := range dirs {
		f(dir, files)
	}
}

// scanDirs marks the directories it cannot read. It starts one goroutine
// per directory, a key of dirs, and each goroutine reads and marks only
// its own directory: no one else writes that entry once they run, so the
// mark it found unset in its first section is still unset in its second.
func scanDirs(dirs map[string][]string) map[string]bool {
	broken := make(map[string]bool)
	eachDir(dirs, func(dir string, files []string) {
		if len(files) == 0 {
			broken[dir] = true
		}
	})
	var mu sync.Mutex
	var group errgroup.Group
	for dir, files := range dirs {
		group.Go(func() error {
			mu.Lock()
			skip := broken[dir]
			mu.Unlock()
			if skip {
				return nil
			}
			if err := readDir(dir, files); err != nil {
				mu.Lock()
				broken[dir] = true
				mu.Unlock()
			}
			return nil
		})
	}
	group.Wait()
	return broken
}

// scanListed starts one goroutine per element of a list, which may name
// a directory twice: two goroutines can read the same unset mark, and
// both read the directory.
func scanListed(list []string, files map[string][]string) map[string]bool {
	broken := make(map[string]bool)
	var mu sync.Mutex
	var wg sync.WaitGroup
	for _, dir := range list {
		wg.Go(func() {
			mu.Lock()
			skip := broken[dir]
			mu.Unlock()
			if skip {
				return
			}
			if err := readDir(dir, files[dir]); err != nil {
				mu.Lock() // want `mu is locked again after the section that checked`
				broken[dir] = true
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return broken
}

// scanWithParents marks a directory's parent too: the goroutine of one
// directory writes the entry another goroutine owns.
func scanWithParents(dirs map[string][]string) map[string]bool {
	broken := make(map[string]bool)
	var mu sync.Mutex
	var wg sync.WaitGroup
	for dir, files := range dirs {
		wg.Go(func() {
			mu.Lock()
			skip := broken[dir]
			mu.Unlock()
			if skip {
				return
			}
			if err := readDir(dir, files); err != nil {
				mu.Lock() // want `mu is locked again after the section that checked`
				broken[dir] = true
				broken[path.Dir(dir)] = true
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return broken
}

// scanWatched lets a watcher goroutine, started before the loop, mark
// directories as they change: it may mark the goroutine's own directory
// between its two sections.
func scanWatched(dirs map[string][]string, changed <-chan string) map[string]bool {
	broken := make(map[string]bool)
	var mu sync.Mutex
	go func() {
		for dir := range changed {
			mu.Lock()
			broken[dir] = false
			mu.Unlock()
		}
	}()
	var wg sync.WaitGroup
	for dir, files := range dirs {
		wg.Go(func() {
			mu.Lock()
			skip := broken[dir]
			mu.Unlock()
			if skip {
				return
			}
			if err := readDir(dir, files); err != nil {
				mu.Lock() // want `mu is locked again after the section that checked`
				broken[dir] = true
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return broken
}

// failHooks keeps callbacks for later: the goroutines below call them.
type failHooks struct{ onFail []func(dir string) }

func (h *failHooks) add(f func(dir string)) { h.onFail = append(h.onFail, f) }

func (h *failHooks) fail(dir string) {
	for _, f := range h.onFail {
		f(path.Dir(dir))
	}
}

// scanHooked registers, before the loop, a hook that marks the parent of
// a failed directory: the hook runs later, on another directory's
// goroutine, and may mark this goroutine's own directory.
func scanHooked(dirs map[string][]string, hooks *failHooks) map[string]bool {
	broken := make(map[string]bool)
	var mu sync.Mutex
	hooks.add(func(dir string) {
		mu.Lock()
		broken[dir] = true
		mu.Unlock()
	})
	var wg sync.WaitGroup
	for dir, files := range dirs {
		wg.Go(func() {
			mu.Lock()
			skip := broken[dir]
			mu.Unlock()
			if skip {
				return
			}
			if err := readDir(dir, files); err != nil {
				hooks.fail(dir)
				mu.Lock() // want `mu is locked again after the section that checked`
				broken[dir] = true
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return broken
}

// scanTwice makes a second pass over the directories while the first
// pass's goroutines may still run: two goroutines share each directory.
func scanTwice(dirs map[string][]string) map[string]bool {
	broken := make(map[string]bool)
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range 2 {
		for dir, files := range dirs {
			wg.Go(func() {
				mu.Lock()
				skip := broken[dir]
				mu.Unlock()
				if skip {
					return
				}
				if err := readDir(dir, files); err != nil {
					mu.Lock() // want `mu is locked again after the section that checked`
					broken[dir] = true
					mu.Unlock()
				}
			})
		}
	}
	wg.Wait()
	return broken
}

// scanRetrying starts a goroutine per attempt at each directory.
func scanRetrying(dirs map[string][]string) map[string]bool {
	broken := make(map[string]bool)
	var mu sync.Mutex
	var wg sync.WaitGroup
	for dir, files := range dirs {
		for range 2 {
			wg.Go(func() {
				mu.Lock()
				skip := broken[dir]
				mu.Unlock()
				if skip {
					return
				}
				if err := readDir(dir, files); err != nil {
					mu.Lock() // want `mu is locked again after the section that checked`
					broken[dir] = true
					mu.Unlock()
				}
			})
		}
	}
	wg.Wait()
	return broken
}

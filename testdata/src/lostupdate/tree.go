package lostupdate

import (
	"math/rand"
	"os"
	"path/filepath"
	"strconv"
	"sync"
)

// growTree has workers create directories under random directories made
// so far. A worker picks a parent under the read lock, creates the child
// outside it, and appends the child under the write lock. The list is
// only ever appended to: the parent picked is still in it, and the
// append keeps whatever the other workers added meanwhile. Silent.
func growTree(root string, workers, each int) int {
	dirs := []string{root}
	var mu sync.RWMutex
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range each {
				mu.RLock()
				parent := dirs[rand.Intn(len(dirs))]
				mu.RUnlock()
				child := filepath.Join(parent, strconv.Itoa(w)+"-"+strconv.Itoa(j))
				if err := os.Mkdir(child, 0o755); err != nil {
					continue
				}
				mu.Lock()
				dirs = append(dirs, child)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return len(dirs)
}

// pruneTree does the same, but a pruner also drops the oldest entries:
// the parent picked may be gone, and the child added under a directory
// no longer listed. Reported.
func pruneTree(root string, each int) []string {
	dirs := []string{root}
	var mu sync.RWMutex
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		for j := range each {
			mu.RLock()
			parent := dirs[rand.Intn(len(dirs))]
			mu.RUnlock()
			child := filepath.Join(parent, strconv.Itoa(j))
			if err := os.Mkdir(child, 0o755); err != nil {
				continue
			}
			mu.Lock() // want `mu is locked again for writing after RUnlock: the value written derives from parent`
			dirs = append(dirs, child)
			mu.Unlock()
		}
	}()
	go func() {
		defer wg.Done()
		for range each {
			mu.Lock()
			if len(dirs) > 8 {
				dirs = dirs[4:]
			}
			mu.Unlock()
		}
	}()
	wg.Wait()
	return dirs
}

// renameTree's other worker rewrites an element in place: the parent
// picked may have been renamed since. Reported.
func renameTree(root string, each int) []string {
	dirs := []string{root}
	var mu sync.RWMutex
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		for j := range each {
			mu.RLock()
			parent := dirs[rand.Intn(len(dirs))]
			mu.RUnlock()
			child := filepath.Join(parent, strconv.Itoa(j))
			mu.Lock() // want `mu is locked again for writing after RUnlock: the value written derives from parent`
			dirs = append(dirs, child)
			mu.Unlock()
		}
	}()
	go func() {
		defer wg.Done()
		for range each {
			mu.Lock()
			dirs[0] = dirs[0] + ".old"
			mu.Unlock()
		}
	}()
	wg.Wait()
	return dirs
}

// capTree's workers append only while the list is short, tested in the
// first section: the list only grows, but two workers can both see room
// for the last directory. Reported.
func capTree(root string, workers, max int) int {
	dirs := []string{root}
	var mu sync.RWMutex
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mu.RLock()
			n := len(dirs)
			parent := dirs[n-1]
			mu.RUnlock()
			if n >= max {
				return
			}
			mu.Lock() // want `mu is locked again for writing after RUnlock: the value written derives from n`
			dirs = append(dirs, filepath.Join(parent, strconv.Itoa(w)))
			mu.Unlock()
		}()
	}
	wg.Wait()
	return len(dirs)
}

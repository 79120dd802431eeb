package lostupdate

import "sync"

var struck = "-"

// announce tells the world a key was struck.
var announce = func(string) {}

// Strike crosses out, from a goroutine per file, the keys some file
// holds. Every store of an entry stores the same struck value, so one
// crossed out between the check and the store is crossed out again: a
// no-op. Silent.
func Strike(in []string, files [][]string) []string {
	var keys []string
	keys = append(keys, in...)
	var mu sync.RWMutex
	var wg sync.WaitGroup
	for _, f := range files {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, k := range f {
				for i := range keys {
					mu.RLock()
					hit := keys[i] == k
					mu.RUnlock()
					if hit {
						mu.Lock()
						keys[i] = struck
						mu.Unlock()
					}
				}
			}
		}()
	}
	wg.Wait()
	return keys
}

// StrikeOrKeep stores two different values: a key another goroutine
// renamed in between is struck on the strength of a check that saw the
// old name.
func StrikeOrKeep(in []string, files [][]string, renames map[string]string) []string {
	var keys []string
	keys = append(keys, in...)
	var mu sync.RWMutex
	var wg sync.WaitGroup
	for _, f := range files {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, k := range f {
				for i := range keys {
					mu.RLock()
					hit := keys[i] == k
					mu.RUnlock()
					if hit {
						mu.Lock() // want `mu is locked again for writing after RUnlock`
						keys[i] = struck
						mu.Unlock()
					}
				}
			}
		}()
	}
	for i, k := range in {
		if to, ok := renames[k]; ok {
			mu.Lock()
			keys[i] = to
			mu.Unlock()
		}
	}
	wg.Wait()
	return keys
}

// StrikeAndAnnounce announces each strike on the strength of the check:
// two goroutines that both saw the key announce it twice.
func StrikeAndAnnounce(in []string, files [][]string) []string {
	var keys []string
	keys = append(keys, in...)
	var mu sync.RWMutex
	var wg sync.WaitGroup
	for _, f := range files {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, k := range f {
				for i := range keys {
					mu.RLock()
					hit := keys[i] == k
					mu.RUnlock()
					if hit {
						announce(k)
						mu.Lock() // want `mu is locked again for writing after RUnlock`
						keys[i] = struck
						mu.Unlock()
					}
				}
			}
		}()
	}
	wg.Wait()
	return keys
}

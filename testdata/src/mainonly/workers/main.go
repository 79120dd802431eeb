// Command workers runs two passes over the same files on two goroutines:
// the cache behind the mutex is shared by them, so both can miss a file
// and the second's store replaces the first's.
package main

import (
	"os"
	"strings"
	"sync"
)

var (
	mu    sync.Mutex
	words = map[string]map[string]bool{}
)

func wordsOf(file string) map[string]bool {
	mu.Lock()
	ws, ok := words[file]
	mu.Unlock()
	if ok {
		return ws
	}
	data, _ := os.ReadFile(file)
	ws = map[string]bool{}
	for _, w := range strings.Fields(string(data)) {
		ws[w] = true
	}
	mu.Lock() // want `mu is locked again after the section that checked: ws was missing in an earlier section`
	words[file] = ws
	mu.Unlock()
	return ws
}

func main() {
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, f := range os.Args[1:] {
				wordsOf(f)
			}
		}()
	}
	wg.Wait()
}

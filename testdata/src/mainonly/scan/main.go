// Command scan lists the files of a tree that mention a word. It runs on
// one goroutine; its cache's mutex is only a precaution, so filling the
// cache after a miss cannot race: silent.
package main

import (
	"fmt"
	"os"
	"strings"
	"sync"
)

var (
	mu    sync.Mutex
	words = map[string]map[string]bool{} // file -> words in it
)

func wordsOf(file string) (map[string]bool, error) {
	mu.Lock()
	ws, ok := words[file]
	mu.Unlock()
	if ok {
		return ws, nil
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	ws = map[string]bool{}
	for _, w := range strings.Fields(string(data)) {
		ws[w] = true
	}
	mu.Lock()
	words[file] = ws
	mu.Unlock()
	return ws, nil
}

func mentions(file, word string) bool {
	ws, err := wordsOf(file)
	return err == nil && ws[word]
}

func main() {
	word, files := os.Args[1], os.Args[2:]
	for _, f := range files {
		if mentions(f, word) {
			fmt.Println(f)
		}
	}
}

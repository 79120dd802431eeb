// Command serve answers the same question over HTTP: each request runs on
// a goroutine of the server's, so two requests can both miss and the
// second's store replaces the first's.
package main

import (
	"net/http"
	"os"
	"strings"
	"sync"
)

var (
	mu    sync.Mutex
	words = map[string]map[string]bool{}
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
	mu.Lock() // want `mu is locked again after the section that checked: ws was missing in an earlier section`
	words[file] = ws
	mu.Unlock()
	return ws, nil
}

func handle(w http.ResponseWriter, r *http.Request) {
	ws, err := wordsOf(r.URL.Query().Get("file"))
	if err == nil && ws[r.URL.Query().Get("word")] {
		w.Write([]byte("yes\n"))
	}
}

func main() {
	http.HandleFunc("/mentions", handle)
	http.ListenAndServe(os.Args[1], nil)
}

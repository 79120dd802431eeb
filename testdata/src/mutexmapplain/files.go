package mutexmapplain

import "sync"

// File locks made on first use, and locked while the table's own lock is
// held: no one waits on an entry's mutex without the table's lock, so
// Forget can only overlap the one holding it. The message says so.
var (
	fileLocks   = map[string]*sync.Mutex{}
	fileLocksMu sync.Mutex
)

func lockFile(path string) func() {
	fileLocksMu.Lock()
	defer fileLocksMu.Unlock()
	l, ok := fileLocks[path]
	if !ok {
		l = &sync.Mutex{}
		fileLocks[path] = l
	}
	l.Lock()
	return l.Unlock
}

func Rewrite(path string, write func() error) error {
	unlock := lockFile(path)
	defer unlock()
	return write()
}

func Forget(path string) {
	fileLocksMu.Lock()
	defer fileLocksMu.Unlock()
	delete(fileLocks, path) // want `per-key mutex removed from fileLocks by delete while another goroutine may hold or wait on it: the holder of the removed mutex and a newcomer`
}

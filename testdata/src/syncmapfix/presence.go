package syncmapfix

import "sync"

// A lookup that only asks whether the key is there, and leaves when it
// is: the Store becomes a LoadOrStore that leaves the same way when a
// racer stored one meanwhile, whatever the value stored (built in place,
// or handed on after the Store).

type link struct{ peer string }

// Links keeps one link per peer.
type Links struct {
	byPeer sync.Map // string -> *link
}

// Open opens a link once per peer.
func (l *Links) Open(peer string) {
	if _, ok := l.byPeer.Load(peer); ok {
		return
	}
	l.byPeer.Store(peer, &link{peer: peer}) // want `l.byPeer.Store stores what l.byPeer.Load found missing, .*use l.byPeer.LoadOrStore and leave as the lookup does when it finds one`
}

type job struct{ key string }

// Enqueue queues a job once per key: the racer that loses leaves
// without queueing its job a second time.
func Enqueue(jobs *sync.Map, queue chan<- *job, j *job) bool {
	if _, dup := jobs.Load(j.key); dup {
		return false
	}
	jobs.Store(j.key, j) // want `jobs.Store stores what jobs.Load found missing, .*use jobs.LoadOrStore and leave as the lookup does when it finds one`
	queue <- j
	return true
}

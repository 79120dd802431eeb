package startup

import (
	"errors"
	"sync"
)

// Replica is a consensus member. Init, which loads its log and moves
// it from stopped to initialised, is called once by the server that
// owns it before Start; its "not running" test, read under the read
// lock, cannot be made stale by a second Init. Promote, which the
// election timer and an operator's request may both call, has the same
// shape and is reported.
type Replica struct {
	mutex sync.RWMutex
	state string
	log   []string
}

func (r *Replica) Running() bool {
	r.mutex.RLock()
	defer r.mutex.RUnlock()
	return r.state == "running"
}

func (r *Replica) Init() error {
	if r.Running() {
		return errors.New("replica already running")
	}
	r.mutex.Lock()
	r.state = "initialised"
	r.log = r.log[:0]
	r.mutex.Unlock()
	return nil
}

func (r *Replica) Promote() error {
	if r.Running() {
		return errors.New("replica already running")
	}
	r.mutex.Lock() // want `r.mutex is locked again for writing after RUnlock: the write is decided by r.Running\(\)`
	r.state = "leader"
	r.mutex.Unlock()
	return nil
}

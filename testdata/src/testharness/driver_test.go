package testharness

import (
	"context"
	"runtime/pprof"
	"sync"
	"testing"
)

// A randomised driver: a world of fake connections the test grows one
// operation at a time. The operations are kept in a target table (the
// start and step functions of each scenario) that the driver loop calls,
// inside pprof.Do to label the run. Each connection runs a goroutine of
// its own that only reads the world.
type world struct {
	mu    sync.Mutex
	conns []*fakeConn
	log   []string
}

type fakeConn struct {
	w  *world
	id int
}

func (w *world) newConn() *fakeConn {
	w.mu.Lock()
	c := &fakeConn{w: w, id: len(w.conns)}
	w.conns = append(w.conns, c)
	w.mu.Unlock()
	go c.watch()
	return c
}

// watch only reads the world.
func (c *fakeConn) watch() {
	c.w.mu.Lock()
	n := len(c.w.conns)
	c.w.mu.Unlock()
	_ = n
}

// connectOp adds a connection unless there are enough. The count read
// in the first section cannot change before newConn appends: only the
// driver's own operations add connections. Silent.
func (w *world) connectOp() {
	w.mu.Lock()
	n := len(w.conns)
	w.mu.Unlock()
	if n >= 4 {
		return
	}
	w.newConn()
}

type target struct {
	start func(w *world)
	step  func(w *world, op byte)
	end   func(w *world)
}

func connectStep(w *world, op byte) {
	if op&1 == 0 {
		w.connectOp()
	}
}

var connectTarget = &target{
	start: func(w *world) { w.newConn() },
	step:  connectStep,
}

func runWorld(tgt *target, ops []byte) *world {
	w := &world{}
	tgt.start(w)
	for _, op := range ops {
		tgt.step(w, op)
	}
	if tgt.end != nil {
		tgt.end(w)
	}
	return w
}

func run(tgt *target, ops []byte) (w *world) {
	pprof.Do(context.Background(), pprof.Labels("world", "1"), func(context.Context) {
		w = runWorld(tgt, ops)
	})
	return w
}

func FuzzConnect(f *testing.F) {
	f.Fuzz(func(t *testing.T, ops []byte) {
		if w := run(connectTarget, ops); len(w.conns) > 4 {
			t.Fatal("too many connections")
		}
	})
}

func TestConnectReplay(t *testing.T) {
	run(connectTarget, []byte{0, 0, 0})
}

// The same world, but its driver runs each step on a goroutine of its
// own beside the next: two steps may both see room for one more
// connection. Reported.
type racyWorld struct {
	mu    sync.Mutex
	conns []int
}

func (w *racyWorld) add() {
	w.mu.Lock()
	w.conns = append(w.conns, len(w.conns))
	w.mu.Unlock()
}

func (w *racyWorld) connectOp() {
	w.mu.Lock()
	n := len(w.conns)
	w.mu.Unlock()
	if n >= 4 {
		return
	}
	w.add() // want `w.mu is locked again by w.add after the section that checked: the write is decided by n`
}

type racyTarget struct {
	step func(w *racyWorld)
}

var racy = &racyTarget{step: func(w *racyWorld) { w.connectOp() }}

func TestRacyConnect(t *testing.T) {
	w := &racyWorld{}
	var wg sync.WaitGroup
	for range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			racy.step(w)
		}()
	}
	wg.Wait()
}

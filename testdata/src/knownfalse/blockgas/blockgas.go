// Package blockgas runs a block's transactions on several workers. Each
// worker stops early once the gas of the transactions done so far is
// over the block's limit, and adds each transaction's gas when it is
// done. The test is a shortcut, not a guard: a worker that passes it on a
// stale total runs one more transaction of a block that is rejected
// anyway, and every add counts. lockgap cannot know what the test is for
// and reports it (go-ethereum's parallel state processor).
package blockgas

import (
	"errors"
	"sync"
	"sync/atomic"
)

var ErrGasLimit = errors.New("block gas limit reached")

type spent struct {
	mu  sync.Mutex
	gas uint64
}

func (s *spent) load() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.gas
}

func (s *spent) add(gas uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.gas += gas
}

func Run(txs []func() uint64, workers int, limit uint64) (uint64, error) {
	var (
		total  spent
		cursor atomic.Int64
		wg     sync.WaitGroup
		failed atomic.Bool
	)
	for range workers {
		wg.Go(func() {
			for {
				if total.load() > limit {
					failed.Store(true)
					return
				}
				i := int(cursor.Add(1)) - 1
				if i >= len(txs) {
					return
				}
				total.add(txs[i]()) // want `total.mu is locked again by total.add after the section that checked: the write is decided by total.load\(\)`
			}
		})
	}
	wg.Wait()
	if failed.Load() || total.load() > limit {
		return 0, ErrGasLimit
	}
	return total.load(), nil
}

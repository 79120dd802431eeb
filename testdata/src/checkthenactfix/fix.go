// Package checkthenactfix holds guards staleguard can re-check for you.
package checkthenactfix

import (
	"errors"
	"fmt"
	"sync"
)

type Queue struct {
	mu    sync.Mutex
	items []string
	max   int
}

func (q *Queue) Offer(job string) bool {
	q.mu.Lock()
	n := len(q.items)
	q.mu.Unlock()
	if n >= q.max {
		return false
	}
	q.mu.Lock() // want `q.mu is locked again after the section that checked: the write is decided by n`
	q.items = append(q.items, job)
	q.mu.Unlock()
	return true
}

var ErrFunds = errors.New("insufficient funds")

type Account struct {
	mu      sync.Mutex
	balance int64
}

func (a *Account) Withdraw(amount int64) error {
	a.mu.Lock()
	ok := a.balance >= amount
	a.mu.Unlock()
	if !ok {
		return fmt.Errorf("withdraw %d: %w", amount, ErrFunds)
	}
	a.mu.Lock() // want `a.mu is locked again after the section that checked: the write is decided by ok`
	a.balance -= amount
	a.mu.Unlock()
	return nil
}

// Package services is a stand-in for dskit's: a service runs its
// starting, running (or each iteration) and stopping functions one after
// another on one goroutine of its own, once.
package services

import (
	"context"
	"time"
)

type StartingFn func(ctx context.Context) error
type RunningFn func(ctx context.Context) error
type StoppingFn func(failureCase error) error
type OneIteration func(ctx context.Context) error

type BasicService struct {
	start StartingFn
	run   RunningFn
	stop  StoppingFn
}

func NewBasicService(start StartingFn, run RunningFn, stop StoppingFn) *BasicService {
	return &BasicService{start: start, run: run, stop: stop}
}

func NewIdleService(up StartingFn, down StoppingFn) *BasicService {
	return &BasicService{start: up, stop: down}
}

func NewTimerService(interval time.Duration, start StartingFn, iter OneIteration, stop StoppingFn) *BasicService {
	return &BasicService{start: start, run: func(ctx context.Context) error {
		for range time.Tick(interval) {
			if err := iter(ctx); err != nil {
				return err
			}
		}
		return nil
	}, stop: stop}
}

// Package reconcile stands in for controller-runtime's (the types a
// reconciler's signature names).
package reconcile

import "context"

type Request struct{ Namespace, Name string }

type Result struct{ Requeue bool }

type Reconciler interface {
	Reconcile(context.Context, Request) (Result, error)
}

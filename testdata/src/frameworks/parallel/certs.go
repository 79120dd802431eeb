// Package parallel runs its reconciler on several workers: reconciles of
// different objects overlap, and the state they share may change between
// two sections of one.
package parallel

import (
	"context"
	"sync"

	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// QuotaReconciler charges each object's pods to its namespace's quota.
// Two workers reconciling objects of one namespace both read the old
// total. Reported.
type QuotaReconciler struct {
	mu   sync.Mutex
	used map[string]int
}

func (r *QuotaReconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	r.mu.Lock()
	used := r.used[req.Namespace]
	r.mu.Unlock()
	if used >= 10 {
		return reconcile.Result{Requeue: true}, nil
	}
	r.mu.Lock() // want `r.mu is locked again after the section that checked: the value written derives from used, read in an earlier section; an update made in between is lost; re-read it in this section`
	r.used[req.Namespace] = used + 1
	r.mu.Unlock()
	return reconcile.Result{}, nil
}

func Setup() error {
	return controller.New("quota", controller.Options{
		Reconciler:              &QuotaReconciler{used: map[string]int{}},
		MaxConcurrentReconciles: 4,
	})
}

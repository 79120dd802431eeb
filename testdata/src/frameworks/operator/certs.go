// Package operator holds controller-runtime reconcilers. A controller
// runs its Reconcile on one worker unless told otherwise, so state that
// only its reconciles touch cannot change between two of their sections.
package operator

import (
	"context"
	"sync"

	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

type Issuer interface {
	Issue(ctx context.Context, name string) error
	Pending(name string) bool
}

// CertReconciler rotates a certificate at most once at a time per
// object: rotating marks a rotation handed to the issuer and not yet
// seen done. Only its own reconciles read or write it. Silent.
type CertReconciler struct {
	issuer Issuer

	mu       sync.Mutex
	rotating map[string]bool
}

func (r *CertReconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	rotate, err := r.shouldRotate(ctx, req.Name)
	if err != nil || !rotate {
		return reconcile.Result{Requeue: rotate}, err
	}
	return reconcile.Result{}, r.issuer.Issue(ctx, req.Name)
}

func (r *CertReconciler) shouldRotate(ctx context.Context, name string) (rotate bool, err error) {
	r.mu.Lock()
	inFlight := r.rotating[name]
	r.mu.Unlock()

	if inFlight {
		if !r.issuer.Pending(name) {
			r.mu.Lock()
			r.rotating[name] = false
			r.mu.Unlock()
		}
		return false, nil
	}
	defer func() {
		r.mu.Lock()
		r.rotating[name] = rotate
		r.mu.Unlock()
	}()
	return ctx.Err() == nil, nil
}

// BackupReconciler has the same shape, but an operator's HTTP endpoint
// can cancel a backup through Cancel, outside any reconcile: it runs on
// the server's goroutines, beside the worker. Reported.
type BackupReconciler struct {
	mu      sync.Mutex
	running map[string]bool
}

func (r *BackupReconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	r.mu.Lock()
	running := r.running[req.Name]
	r.mu.Unlock()
	if running {
		return reconcile.Result{Requeue: true}, nil
	}
	r.mu.Lock() // want `r.mu is locked again after the section that checked: the write is decided by running, read in an earlier section, which may be stale; re-check it in this section`
	r.running[req.Name] = true
	r.mu.Unlock()
	return reconcile.Result{}, nil
}

func (r *BackupReconciler) Cancel(name string) {
	r.mu.Lock()
	r.running[name] = false
	r.mu.Unlock()
}

// Setup registers the reconcilers with the default options: one worker
// each.
func Setup() error {
	if err := controller.New("certs", controller.Options{Reconciler: &CertReconciler{rotating: map[string]bool{}}}); err != nil {
		return err
	}
	return controller.New("backups", controller.Options{Reconciler: &BackupReconciler{running: map[string]bool{}}})
}

// Syncer has a Reconcile method too, but not controller-runtime's: it
// takes a plain key, and its package's workers call it from several
// goroutines at once. Reported.
type Syncer struct {
	mu     sync.Mutex
	synced map[string]int
}

func (s *Syncer) Reconcile(ctx context.Context, key string) (int, error) {
	s.mu.Lock()
	n := s.synced[key]
	s.mu.Unlock()
	s.mu.Lock() // want `s.mu is locked again after the section that checked: the value written derives from n, read in an earlier section; an update made in between is lost; re-read it in this section`
	s.synced[key] = n + 1
	s.mu.Unlock()
	return n + 1, ctx.Err()
}

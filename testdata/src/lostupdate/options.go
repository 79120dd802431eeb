package lostupdate

import "sync"

// Replication targets and the resyncs started for them. A resync is
// started with an options struct built from the target found under the
// read lock; the helper it is handed to reloads the bucket's target
// from disk and stores that, under the write lock, using only the
// bucket from the struct, so nothing it writes derives from the target
// read earlier: silent. Retarget hands the same kind of struct to a
// helper that stores the target in it, so a target changed in between
// is overwritten with the old one: reported.

type resyncOptions struct {
	bucket   string
	target   string
	resyncID string
}

type Replication struct {
	mu      sync.RWMutex
	targets map[string]string // bucket -> target ARN
	load    func(bucket string) string
}

func (r *Replication) targetOf(bucket string) string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.targets[bucket]
}

func (r *Replication) startResync(opts resyncOptions) {
	saved := r.load(opts.bucket)
	r.mu.Lock()
	r.targets[opts.bucket] = saved
	r.mu.Unlock()
	println("resync", opts.resyncID, "started")
}

func (r *Replication) recordTarget(opts resyncOptions) {
	r.mu.Lock()
	r.targets[opts.bucket] = opts.target
	r.mu.Unlock()
}

func (r *Replication) logResync(opts resyncOptions) {
	println("resync", opts.bucket, "to", opts.target)
}

func (r *Replication) Resync(bucket, id string) {
	target := r.targetOf(bucket)
	opts := resyncOptions{bucket: bucket, target: target, resyncID: id}
	r.logResync(opts)
	r.startResync(opts)
}

func (r *Replication) Retarget(bucket, id string) {
	target := r.targetOf(bucket)
	r.recordTarget(resyncOptions{bucket: bucket, target: target, resyncID: id}) // want `r.mu is locked again for writing by r.recordTarget after RUnlock: the value written derives from target`
}

// requeue stamps the attempt on the options it was handed and hands them
// on: the bucket it passes to startResync is still the caller's. Retry
// is silent like Resync. reroute hands its options on to recordTarget
// after rewriting the target from the one it was handed: Reroute is
// reported like Retarget.
func (r *Replication) requeue(opts resyncOptions, attempt int) {
	opts.resyncID = opts.resyncID + "#" + string(rune('0'+attempt))
	r.startResync(opts)
}

func (r *Replication) Retry(bucket, id string) {
	target := r.targetOf(bucket)
	r.requeue(resyncOptions{bucket: bucket, target: target, resyncID: id}, 2)
}

func (r *Replication) reroute(opts resyncOptions) {
	opts.target = opts.target + "/v2"
	r.recordTarget(opts)
}

func (r *Replication) Reroute(bucket, id string) {
	target := r.targetOf(bucket)
	r.reroute(resyncOptions{bucket: bucket, target: target, resyncID: id}) // want `r.mu is locked again for writing by r.reroute after RUnlock: the value written derives from target`
}

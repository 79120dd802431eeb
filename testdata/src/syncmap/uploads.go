package syncmap

import "sync"

// chunkedUpload is the state of a resumable upload: the bytes received
// so far. It holds a slice, so two of them cannot be compared.
type chunkedUpload struct {
	name     string
	received []byte
}

// UploadServer appends each chunk to the upload's copy and stores the
// copy back: two requests for one upload at once lose a chunk. The advice
// is not CompareAndSwap on the values, which panics on an uncomparable
// type. Reported.
type UploadServer struct {
	uploads sync.Map // upload id -> chunkedUpload
}

func (s *UploadServer) Start(id, name string) {
	s.uploads.Store(id, chunkedUpload{name: name})
}

func (s *UploadServer) Append(id string, chunk []byte) bool {
	v, ok := s.uploads.Load(id)
	if !ok {
		return false
	}
	up := v.(chunkedUpload)
	up.received = append(up.received, chunk...)
	s.uploads.Store(id, up) // want `s.uploads.Store writes a value derived from s.uploads.Load, read by an earlier call; an update or removal made in between is undone; chunkedUpload values cannot be compared, so store pointers to them and swap with s.uploads.CompareAndSwap in a loop`
	return true
}

// PointerUploads keeps pointers and appends under the upload's own lock:
// nothing is stored back. Silent.
type PointerUploads struct {
	uploads sync.Map // upload id -> *lockedUpload
}

type lockedUpload struct {
	mu       sync.Mutex
	received []byte
}

func (s *PointerUploads) Start(id string) {
	s.uploads.LoadOrStore(id, &lockedUpload{})
}

func (s *PointerUploads) Append(id string, chunk []byte) bool {
	v, ok := s.uploads.Load(id)
	if !ok {
		return false
	}
	up := v.(*lockedUpload)
	up.mu.Lock()
	up.received = append(up.received, chunk...)
	up.mu.Unlock()
	return true
}

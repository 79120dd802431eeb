// Package mutexmapkeyfix holds sync.Map keys of the wrong dynamic type
// that can be converted, and their fixed forms in fix.go.golden.
package mutexmapkeyfix

import (
	"sync"

	apitypes "mutexmaptypes"
)

type Statuses struct {
	byUID  sync.Map // apitypes.UID -> string
	byName sync.Map // string -> apitypes.UID
}

func (s *Statuses) Set(meta apitypes.ObjectMeta, status string) {
	s.byUID.Store(meta.UID, status)
	s.byName.Store(meta.Name, meta.UID)
}

func (s *Statuses) Get(uid string) (string, bool) {
	v, ok := s.byUID.Load(uid) // want `key uid has dynamic type string, but s.byUID only stores keys of type mutexmaptypes.UID`
	if !ok {
		return "", false
	}
	return v.(string), true
}

type name string

func (s *Statuses) Forget(n name, uid string) {
	s.byName.Delete(n)   // want `key n has dynamic type name, but s.byName only stores keys of type string`
	s.byUID.Delete(uid) // want `key uid has dynamic type string, but s.byUID only stores keys of type mutexmaptypes.UID`
}

type Counter struct {
	hits sync.Map // int64 -> *int64
}

func (c *Counter) Add(code int64, n *int64) { c.hits.Store(code, n) }

func (c *Counter) Reset(code int) {
	c.hits.Delete(code) // want `key code has dynamic type int, but c.hits only stores keys of type int64`
}

// Package mutexmapkeys holds sync.Map lookups and removals whose key can
// never match: the key's dynamic type differs from every stored key's.
package mutexmapkeys

import (
	"sync"
	"time"

	"mutexmaptypes"
)

type Endpoint struct {
	Addr string
	Seen time.Time
}

// Endpoints stores by string(uid) and is queried by uid: Load never finds
// anything and Delete never removes anything.
type Endpoints struct {
	byService sync.Map // string -> []Endpoint
}

func (e *Endpoints) Set(svc *mutexmaptypes.Service, eps []Endpoint) {
	e.byService.Store(string(svc.UID), eps)
}

func (e *Endpoints) Get(svc *mutexmaptypes.Service) []Endpoint {
	v, ok := e.byService.Load(svc.UID) // want `key svc.UID has dynamic type mutexmaptypes.UID, but e.byService only stores keys of type string: this Load never matches`
	if !ok {
		return nil
	}
	return v.([]Endpoint)
}

func (e *Endpoints) OnServiceDeleted(svc *mutexmaptypes.Service) {
	e.byService.Delete(svc.UID) // want `key svc.UID has dynamic type mutexmaptypes.UID, but e.byService only stores keys of type string: this Delete never matches`
}

// GetByName uses the stored type: found.
func (e *Endpoints) GetByName(uid string) []Endpoint {
	v, _ := e.byService.Load(uid)
	eps, _ := v.([]Endpoint)
	return eps
}

type PortKey int32

// Ports stores int keys (an untyped constant and int variables) but
// removes with int32 and PortKey keys.
type Ports struct {
	used sync.Map // int -> string
}

func (p *Ports) Claim(port int, owner string) bool {
	_, loaded := p.used.LoadOrStore(port, owner)
	return !loaded
}

func (p *Ports) ClaimDefault() { p.used.Store(80, "http") }

func (p *Ports) Release(port int32) {
	p.used.Delete(port) // want `key port has dynamic type int32, but p.used only stores keys of type int`
}

func (p *Ports) ReleaseKey(k PortKey, owner string) bool {
	return p.used.CompareAndDelete(k, owner) // want `key k has dynamic type PortKey, but p.used only stores keys of type int: this CompareAndDelete never matches`
}

func (p *Ports) ReleaseInt(port int) { p.used.Delete(port) }

// pending is a package variable keyed by pointers to requests.
type request struct{ id uint64 }

var pending sync.Map // *request -> chan error

func wait(r *request) chan error {
	ch := make(chan error, 1)
	pending.Store(r, ch)
	return ch
}

func complete(id uint64, err error) {
	if v, ok := pending.LoadAndDelete(id); ok { // want `key id has dynamic type uint64, but pending only stores keys of type \*request: this LoadAndDelete never matches`
		v.(chan error) <- err
	}
}

func completeReq(r *request, err error) {
	if v, ok := pending.LoadAndDelete(r); ok {
		v.(chan error) <- err
	}
}

package syncmapfix

import (
	"reflect"
	"sync"
	"time"
)

type Sessions struct {
	byID sync.Map // string -> *session
}

type session struct{ id string }

// Bump's stale value is added to: CompareAndSwap needs a loop the fix
// cannot write for it.
func (s *Sessions) Bump(counts *sync.Map, id string) {
	n := 0
	if v, ok := counts.Load(id); ok {
		n = v.(int)
	}
	counts.Store(id, n+1) // want `counts.Store writes a value derived from counts.Load`
}

type lease struct {
	holder  string
	expires time.Time
}

// Renew stores a new lease where the one found had expired as well as
// where there was none: LoadOrStore would keep the expired lease for
// good, so no fix.
func (s *Sessions) Renew(leases *sync.Map, key, holder string) *lease {
	if v, ok := leases.Load(key); ok && time.Now().Before(v.(*lease).expires) {
		return v.(*lease)
	}
	l := &lease{holder: holder, expires: time.Now().Add(time.Minute)}
	leases.Store(key, l) // want `leases.Store stores what leases.Load found missing or stale`
	return l
}

type hits struct{ n int }

// Hit counts on its own new tally before storing it: keeping the winner
// instead would lose that count, so no fix.
func (s *Sessions) Hit(tallies *sync.Map, key string) {
	if v, ok := tallies.Load(key); ok {
		v.(*hits).n++
		return
	}
	h := &hits{}
	h.n++
	tallies.Store(key, h) // want `tallies.Store stores what tallies.Load found missing`
}

type ticketClient struct{ path string }

// Tickets looks its cache up only when the ticket file has not changed
// since: on the other way the Store replaces a client built from the
// old file, which LoadOrStore would keep for good, so no fix.
type Tickets struct {
	clients  sync.Map // path -> *ticketClient
	modTimes sync.Map // path -> time.Time
}

func (t *Tickets) Client(path string, mtime time.Time) *ticketClient {
	if old, ok := t.modTimes.Load(path); ok && old.(time.Time).Equal(mtime) {
		if c, ok := t.clients.Load(path); ok {
			return c.(*ticketClient)
		}
	}
	c := &ticketClient{path: path}
	t.clients.Store(path, c)      // want `t.clients.Store stores what t.clients.Load found missing`
	t.modTimes.Store(path, mtime) // want `t.modTimes.Store stores what t.modTimes.Load found missing or stale`
	return c
}

type poller struct{ addr string }

func (p *poller) run() {}

// Poll starts the poller it stored: with the racer's poller kept, that
// one would be started a second time, so no fix.
func (s *Sessions) Poll(pollers *sync.Map, addr string) *poller {
	if v, ok := pollers.Load(addr); ok {
		return v.(*poller)
	}
	p := &poller{addr: addr}
	pollers.Store(addr, p) // want `pollers.Store stores what pollers.Load found missing`
	go p.run()
	return p
}

// BookNamed says who holds the room when it is taken: the way out uses
// what the Load found, which the LoadOrStore would have to hand back;
// reported, without a fix.
func (r *Rooms) BookNamed(room, guest string) (string, bool) {
	if holder, ok := r.booker.Load(room); ok {
		return holder.(string), false
	}
	r.booker.Store(room, guest) // want `r.booker.Store stores what r.booker.Load found missing, but another goroutine may have claimed the entry since`
	return guest, true
}

// Attach logs before it leaves on a hit: the lookup's way out is more
// than a return, and the session is built in place (no variable to hand
// the winner to), so no fix.
func (s *Sessions) Attach(id string, logf func(string, ...any)) {
	if _, ok := s.byID.Load(id); ok {
		logf("session %s already attached", id)
		return
	}
	s.byID.Store(id, &session{id: id}) // want `s.byID.Store stores what s.byID.Load found missing, .*keep the value it returns`
}

// offsets memoises a struct type's offsets, which Offsets also hands to
// the listeners once worked out.
var offsets sync.Map // reflect.Type -> []uintptr

var offsetListeners []chan<- []uintptr

// Offsets hands the value it stored on after asserting it: keeping a
// racer's entry would hand that one on a second time. No fix.
func Offsets(t reflect.Type) []uintptr {
	x, ok := offsets.Load(t)
	if !ok {
		var offs []uintptr
		for i := range t.NumField() {
			offs = append(offs, t.Field(i).Offset)
		}
		x = offs
		offsets.Store(t, x) // want `offsets.Store stores what offsets.Load found missing`
		for _, l := range offsetListeners {
			l <- x.([]uintptr)
		}
	}
	return x.([]uintptr)
}

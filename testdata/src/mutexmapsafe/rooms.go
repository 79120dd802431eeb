package mutexmapsafe

import "sync"

// Rooms serialises posts per room with a mutex per room, and every post
// takes the rooms lock for reading first, holding it until the room's
// mutex is unlocked again. Closing a room holds the rooms lock for
// writing: no post can be inside a room's mutex, or waiting on it, so
// dropping the mutex with the room is safe.
type Rooms struct {
	mu      sync.RWMutex
	locks   sync.Map // room -> *sync.Mutex
	members map[string][]string
	log     map[string][]string
}

func (r *Rooms) Post(room, msg string) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	v, _ := r.locks.LoadOrStore(room, &sync.Mutex{})
	m := v.(*sync.Mutex)
	m.Lock()
	defer m.Unlock()
	r.log[room] = append(r.log[room], msg)
}

func NewRooms() *Rooms {
	return &Rooms{locks: sync.Map{}, members: map[string][]string{}, log: map[string][]string{}}
}

// Join keeps the member in the room until done, then a goroutine takes
// the locks again, in the same order, to let it leave.
func (r *Rooms) Join(room, who string, done <-chan struct{}) {
	r.mu.Lock()
	defer r.mu.Unlock()
	v, _ := r.locks.LoadOrStore(room, &sync.Mutex{})
	v.(*sync.Mutex).Lock()
	defer v.(*sync.Mutex).Unlock()
	r.members[room] = append(r.members[room], who)
	go func() {
		<-done
		r.mu.Lock()
		defer r.mu.Unlock()
		v.(*sync.Mutex).Lock()
		defer v.(*sync.Mutex).Unlock()
		r.leave(room, who)
	}()
}

func (r *Rooms) Close(room string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.drop(room)
}

// leave and drop run only where their callers hold r.mu for writing.
func (r *Rooms) leave(room, who string) {
	left := r.members[room][:0]
	for _, m := range r.members[room] {
		if m != who {
			left = append(left, m)
		}
	}
	r.members[room] = left
	if len(left) == 0 {
		r.drop(room)
	}
}

func (r *Rooms) drop(room string) {
	delete(r.members, room)
	r.locks.Delete(room)
}

// Lobby is the same, but a post lets go of the lobby lock before it is
// done with the room's mutex: a close can drop the mutex while a post
// still holds it, and the next post locks a fresh one beside it.
type Lobby struct {
	mu    sync.RWMutex
	locks sync.Map // room -> *sync.Mutex
	log   map[string][]string
}

func (l *Lobby) Post(room, msg string) {
	l.mu.RLock()
	v, _ := l.locks.LoadOrStore(room, &sync.Mutex{})
	m := v.(*sync.Mutex)
	m.Lock()
	l.mu.RUnlock()
	defer m.Unlock()
	l.log[room] = append(l.log[room], msg)
}

// Evict drops a room with the lobby lock held by one caller (Close) but
// not by the other (Expire).
func (l *Lobby) Close(room string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.evict(room)
}

func (l *Lobby) Expire(room string) { l.evict(room) }

func (l *Lobby) evict(room string) {
	l.locks.Delete(room) // want `per-key mutex removed from l.locks by Delete while another goroutine may hold or wait on it`
}

func (l *Lobby) Drop(room string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.locks.Delete(room) // want `per-key mutex removed from l.locks by Delete while another goroutine may hold or wait on it`
}

// Hall closes rooms holding the hall lock only for reading: other posts
// hold it too, and one of them may be waiting on the mutex removed.
type Hall struct {
	mu    sync.RWMutex
	locks sync.Map // room -> *sync.Mutex
	log   map[string][]string
}

func (h *Hall) Post(room, msg string) {
	h.mu.RLock()
	defer h.mu.RUnlock()
	v, _ := h.locks.LoadOrStore(room, &sync.Mutex{})
	m := v.(*sync.Mutex)
	m.Lock()
	defer m.Unlock()
	h.log[room] = append(h.log[room], msg)
}

func (h *Hall) Close(room string) {
	h.mu.RLock()
	defer h.mu.RUnlock()
	h.locks.Delete(room) // want `per-key mutex removed from h.locks by Delete while another goroutine may hold or wait on it`
}

package syncmapfix

import (
	"errors"
	"sync"
)

var errBooked = errors.New("room booked")

// Rooms records who booked each room.
type Rooms struct {
	booker sync.Map // room -> guest name
}

// Book stores the caller's name after a Load found the room free: two
// guests who both find it free are both told it is theirs. The fix turns
// the Store into a LoadOrStore that fails as the Load does.
func (r *Rooms) Book(room, guest string) error {
	if _, ok := r.booker.Load(room); ok {
		return errBooked
	}
	r.booker.Store(room, guest) // want `r.booker.Store stores what r.booker.Load found missing, but another goroutine may have claimed the entry since; this replaces what it stored, and both go on as if the entry were theirs; use r.booker.LoadOrStore and give up when it finds an entry`
	return nil
}

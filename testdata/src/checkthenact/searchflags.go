package checkthenact

import (
	"errors"
	"sync"
)

var errNoChair = errors.New("no free chair")

// A Table lists the players seated at a table. Searches over it keep
// what they found in a flag or an index, and act on it afterwards.
type Table struct {
	mu      sync.Mutex
	players []string
	chairs  []string // "" is a free seat
}

// Join searches with a flag and joins in a second section: two calls for
// one player both find nothing and seat the player twice.
func (r *Table) Join(player string) {
	r.mu.Lock()
	seated := false
	for _, p := range r.players {
		if p == player {
			seated = true
			break
		}
	}
	r.mu.Unlock()
	if seated {
		return
	}
	r.mu.Lock() // want `r.mu is locked again after the section that checked: the write is decided by r.players\[...\], read in an earlier section, which may be stale; re-check it in this section`
	r.players = append(r.players, player)
	r.mu.Unlock()
}

// Sit finds a free seat by index and takes it in a second section: a
// racer may have taken that seat since.
func (r *Table) Sit(player string) error {
	r.mu.Lock()
	free := -1
	for i, s := range r.chairs {
		if s == "" {
			free = i
			break
		}
	}
	r.mu.Unlock()
	if free < 0 {
		return errNoChair
	}
	r.mu.Lock() // want `r.mu is locked again after the section that checked: the write is decided by r.chairs\[...\], read in an earlier section, which may be stale; re-check it in this section`
	r.chairs[free] = player
	r.mu.Unlock()
	return nil
}

// JoinChecked searches again in the section that appends. Silent.
func (r *Table) JoinChecked(player string) {
	r.mu.Lock()
	seated := false
	for _, p := range r.players {
		if p == player {
			seated = true
			break
		}
	}
	r.mu.Unlock()
	if seated {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, p := range r.players {
		if p == player {
			return
		}
	}
	r.players = append(r.players, player)
}

// SitClaimed takes the seat in the section that found it free, and only
// records who sat in the second. Silent.
func (r *Table) SitClaimed(player string, log *[]string) error {
	r.mu.Lock()
	free := -1
	for i, s := range r.chairs {
		if s == "" {
			r.chairs[i] = player
			free = i
			break
		}
	}
	r.mu.Unlock()
	if free < 0 {
		return errNoChair
	}
	*log = append(*log, player)
	return nil
}

// Count counts the seated players behind a flag that only says whether to
// log; the write in the second section does not depend on it. Silent.
func (r *Table) Count(counts map[string]int) {
	r.mu.Lock()
	empty := true
	for _, s := range r.chairs {
		if s != "" {
			empty = false
			break
		}
	}
	r.mu.Unlock()
	if empty {
		println("empty table")
	}
	r.mu.Lock()
	counts["tables"]++
	r.mu.Unlock()
}

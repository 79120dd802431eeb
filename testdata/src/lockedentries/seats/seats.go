// Package seats keeps the seating chart of a show. Book checks that a
// seat is free in one section and takes it in another: a Chart does not
// serialise bookings by itself. Every booking in the module goes through
// the box office, which holds its own lock around each one, and calls
// Book through an interface. The interface's method names seats' own
// Seat, so no interface outside the module can reach Book, and the
// driver sees every call made through one.
package seats

import "sync"

type Seat struct {
	Row byte
	Num int
}

type Chart struct {
	mu    sync.Mutex
	taken map[Seat]string
}

func NewChart() *Chart { return &Chart{taken: make(map[Seat]string)} }

func (c *Chart) isFree(s Seat) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, taken := c.taken[s]
	return !taken
}

// Book gives the seat to who if no one has it.
func (c *Chart) Book(s Seat, who string) bool {
	if !c.isFree(s) {
		return false
	}
	c.mu.Lock() // want `c.mu is locked again`
	c.taken[s] = who
	c.mu.Unlock()
	return true
}

// BookBlock books n seats side by side from first, as many as are free,
// and says how many it got.
func (c *Chart) BookBlock(first Seat, n int, who string) int {
	got := 0
	for i := range n {
		if c.Book(Seat{Row: first.Row, Num: first.Num + i}, who) {
			got++
		}
	}
	return got
}

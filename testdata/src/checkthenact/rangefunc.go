package checkthenact

import (
	"iter"
	"maps"
	"slices"
	"sync"
)

// A Playlist keeps its tracks and play counts, and goes through them with
// the standard iterators. go/ssa makes each range-over-func body a
// function of its own; it runs in place, under the section around it.
type Playlist struct {
	mu     sync.Mutex
	tracks []string
	plays  map[string]int
}

// Enqueue searches the tracks through slices.Values and appends in a
// second section: two calls with one track both append it.
func (p *Playlist) Enqueue(track string) {
	p.mu.Lock()
	queued := false
	for t := range slices.Values(p.tracks) {
		if t == track {
			queued = true
			break
		}
	}
	p.mu.Unlock()
	if queued {
		return
	}
	p.mu.Lock() // want `p.mu is locked again after the section that checked: the write is decided by p.tracks, read in an earlier section, which may be stale; re-check it in this section`
	p.tracks = append(p.tracks, track)
	p.mu.Unlock()
}

// Play counts from what maps.All showed in the first section: a play
// counted in between is lost.
func (p *Playlist) Play(track string) {
	p.mu.Lock()
	n := 0
	for t, c := range maps.All(p.plays) {
		if t == track {
			n = c
		}
	}
	p.mu.Unlock()
	p.mu.Lock() // want `p.mu is locked again after the section that checked: the value written derives from p.plays, read in an earlier section; an update made in between is lost; re-read it in this section`
	p.plays[track] = n + 1
	p.mu.Unlock()
}

// EnqueueChecked looks again in the section that appends. Silent.
func (p *Playlist) EnqueueChecked(track string) {
	p.mu.Lock()
	queued := false
	for t := range slices.Values(p.tracks) {
		if t == track {
			queued = true
			break
		}
	}
	p.mu.Unlock()
	if queued {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if slices.Contains(p.tracks, track) {
		return
	}
	p.tracks = append(p.tracks, track)
}

// PlayAgain reads the count again through maps.All in the section that
// writes it. Silent.
func (p *Playlist) PlayAgain(track string) {
	p.mu.Lock()
	seen := false
	for t := range maps.Keys(p.plays) {
		if t == track {
			seen = true
		}
	}
	p.mu.Unlock()
	if !seen {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	for t, c := range maps.All(p.plays) {
		if t == track {
			p.plays[track] = c + 1
		}
	}
}

// Shuffle only logs what the first section's loop saw; the second
// section's write does not depend on it. Silent.
func (p *Playlist) Shuffle(seed int) {
	p.mu.Lock()
	long := 0
	for t := range slices.Values(p.tracks) {
		if len(t) > 40 {
			long++
		}
	}
	p.mu.Unlock()
	println("long titles:", long)
	p.mu.Lock()
	p.plays["shuffles"] = seed
	p.mu.Unlock()
}

// Len and Add each take the lock on their own.
func (p *Playlist) Len() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.tracks)
}

func (p *Playlist) Add(track string) {
	p.mu.Lock()
	p.tracks = append(p.tracks, track)
	p.mu.Unlock()
}

// lines yields the non-empty lines of a list.
func lines(list string) iter.Seq[string] {
	return func(yield func(string) bool) {
		start := 0
		for i := 0; i <= len(list); i++ {
			if i == len(list) || list[i] == '\n' {
				if i > start && !yield(list[start:i]) {
					return
				}
				start = i + 1
			}
		}
	}
}

// Import checks the length in one section and adds each line in later
// ones, from the body of a range over a function: imports running
// together both pass the check and overfill the playlist.
func (p *Playlist) Import(list string) {
	if p.Len() >= 100 {
		return
	}
	for t := range lines(list) {
		p.Add(t) // want `p.mu is locked again by p.Add after the section that checked`
	}
}

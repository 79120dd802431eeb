package checkthenact

import (
	"strconv"
	"sync"

	"github.com/google/uuid"
)

// walkState is where a paginated listing stopped.
type walkState struct {
	next  []string
	depth int
}

// pageTokens keeps, for each token a listing handed out, where the
// listing stopped. A page is stored under a token drawn fresh: it adds an
// entry and replaces no one's.
type pageTokens struct {
	mu    sync.Mutex
	pages map[string]walkState
}

func (p *pageTokens) get(token string) (walkState, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	st, ok := p.pages[token]
	return st, ok
}

func (p *pageTokens) add(st walkState) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	token := uuid.NewString()
	p.pages[token] = st
	return token
}

// nextPage resumes a listing and stores where the next page starts
// under a new token.
func (p *pageTokens) nextPage(token string, limit int) ([]string, string) {
	st, ok := p.get(token)
	if !ok || len(st.next) == 0 {
		return nil, ""
	}
	n := min(limit, len(st.next))
	page := st.next[:n]
	rest := walkState{next: st.next[n:], depth: st.depth + 1}
	return page, p.add(rest)
}

// pageSlots numbers its pages instead: the next page of page 3 is page
// 4, whoever asks, so two listings resuming page 3 both store page 4 and
// the later one replaces what the other stored since.
type pageSlots struct {
	mu    sync.Mutex
	pages map[string]walkState
}

func (p *pageSlots) get(token string) (walkState, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	st, ok := p.pages[token]
	return st, ok
}

func (p *pageSlots) put(token string, st walkState) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.pages[token] = st
}

func (p *pageSlots) nextPage(token string, limit int) []string {
	st, ok := p.get(token)
	if !ok || len(st.next) == 0 {
		return nil
	}
	n := min(limit, len(st.next))
	page := st.next[:n]
	p.put(strconv.Itoa(st.depth+1), walkState{next: st.next[n:], depth: st.depth + 1}) // want `p.mu is locked again by p.put after the section`
	return page
}

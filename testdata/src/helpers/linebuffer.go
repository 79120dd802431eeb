package helpers

import "sync"

// lineBuffer holds what a prompt has typed so far; only the prompt's
// goroutine edits it, others read it.
type lineBuffer struct {
	mu    sync.RWMutex
	runes []rune
}

// empty answers len == 0: its true means nothing is there, the opposite
// of a found result, so it is not read as one.
func (b *lineBuffer) empty() bool {
	b.mu.RLock()
	defer b.mu.RUnlock()
	return len(b.runes) == 0
}

func (b *lineBuffer) setText(text string, wipe bool) {
	b.mu.Lock()
	if wipe {
		b.runes = []rune(text)
	} else {
		b.runes = append(b.runes, []rune(text)...)
	}
	b.mu.Unlock()
}

// Backspace drops the last rune unless the buffer is empty: "not
// empty" found no entry missing, and the write fills none. Silent (read
// with empty's polarity turned round, it was a fill after a miss).
func (b *lineBuffer) Backspace() {
	if b.empty() {
		return
	}
	b.setText(string(b.runes[:len(b.runes)-1]), true)
}

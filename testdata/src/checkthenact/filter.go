package checkthenact

import "sync"

// A filter that answers "allowed" with constants on its early ways out
// (no permissions: true; denied: false) and with a computed bool at the
// end. Its constants are answers, not reports of a lookup: the decision
// the caller acts on is the filter's, read under the peer's lock and
// acted on in a later section of it.

type permissions struct {
	deny    map[string]bool
	decided map[string]bool // memo of deny answers, filled by denies
}

type peer struct {
	mu     sync.Mutex
	perms  *permissions
	outbox []string
}

// denies is called with p.mu held.
func (p *peer) denies(subject string) bool {
	if d, ok := p.perms.decided[subject]; ok {
		return d
	}
	d := p.perms.deny[subject]
	p.perms.decided[subject] = d
	return d
}

func (p *peer) reload(perms *permissions) {
	p.mu.Lock()
	p.perms = perms
	p.mu.Unlock()
}

func (p *peer) deliver(subject string) {
	p.mu.Lock()
	p.outbox = append(p.outbox, subject)
	p.mu.Unlock()
}

const maxOutbox = 64

type fanoutTarget struct {
	to *peer
}

func admit(subject string, t *fanoutTarget) bool {
	p := t.to
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.perms == nil {
		return true
	}
	if p.denies(subject) {
		return false
	}
	return len(p.outbox) < maxOutbox
}

// Fanout delivers what admit allowed under the permissions it saw; a
// reload or a mute in between lets one message through under the old
// settings.
// Reported.
func Fanout(subject string, targets []*fanoutTarget) {
	for _, t := range targets {
		if !admit(subject, t) {
			continue
		}
		t.to.deliver(subject) // want `t.to.mu is locked again by t.to.deliver after the section that checked`
	}
}

var _ = (*peer).reload

// deliverAdmitted asks admit's questions again under the lock it appends
// under.
func (p *peer) deliverAdmitted(subject string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.perms != nil && p.denies(subject) || len(p.outbox) >= maxOutbox {
		return false
	}
	p.outbox = append(p.outbox, subject)
	return true
}

// FanoutChecked uses admit only to skip the call; the delivery decides
// again. Silent.
func FanoutChecked(subject string, targets []*fanoutTarget) {
	for _, t := range targets {
		if !admit(subject, t) {
			continue
		}
		t.to.deliverAdmitted(subject)
	}
}

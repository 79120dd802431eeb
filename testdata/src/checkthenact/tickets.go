package checkthenact

import "sync"

// A help desk's tickets, each assigned to an agent. Escalating a ticket
// takes it from the agent the caller saw on it; if it has been reassigned
// since, the escalation is someone else's business.
type ticket struct {
	agent    string
	priority int
	history  []string
}

type Desk struct {
	mu      sync.Mutex
	tickets map[int]ticket
}

func (d *Desk) lookup(id int) ticket {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.tickets[id]
}

// Escalate copies the ticket out again in the second section and tests
// the agent once more before replacing it: silent.
func (d *Desk) Escalate(id int, agent string) bool {
	t := d.lookup(id)
	if t.agent != agent {
		return false
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	t = d.tickets[id]
	if t.agent != agent {
		return false
	}
	d.tickets[id] = ticket{agent: "supervisor", priority: t.priority + 1, history: append(t.history, agent)}
	return true
}

// EscalateBlind trusts the first look: a ticket reassigned in between is
// taken from its new agent.
func (d *Desk) EscalateBlind(id int, agent string) bool {
	t := d.lookup(id)
	if t.agent != agent {
		return false
	}
	d.mu.Lock() // want `d.mu is locked again after the section that checked`
	defer d.mu.Unlock()
	d.tickets[id] = ticket{agent: "supervisor", priority: 1}
	return true
}

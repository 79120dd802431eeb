// Package events mirrors a chat service's state from the events its
// connection receives. The mutators look a guild up with a getter under
// the read lock and edit it under the write lock: known false in its
// program, where every mutator runs on the connection's one
// event-reading goroutine, which applies one event after another (which
// goroutine runs what). The mutators are exported, and the loop that
// calls them is in another package, so anyone may call them on any
// goroutine as far as this package can tell.
package events

import (
	"errors"
	"sync"
)

var errUnknown = errors.New("unknown guild")

type Member struct{ ID string }

type Guild struct {
	ID      string
	Members []*Member
	Roles   map[string]string
}

type State struct {
	mu     sync.RWMutex
	guilds map[string]*Guild
}

func NewState() *State { return &State{guilds: make(map[string]*Guild)} }

// Guild returns the guild kept for id; the caller must not edit it.
func (s *State) Guild(id string) (*Guild, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	g, ok := s.guilds[id]
	if !ok {
		return nil, errUnknown
	}
	return g, nil
}

// GuildAdd keeps a guild, or copies a newer one into the one kept.
func (s *State) GuildAdd(g *Guild) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if old, ok := s.guilds[g.ID]; ok {
		*old = *g
		return
	}
	s.guilds[g.ID] = g
}

func (s *State) GuildRemove(id string) {
	s.mu.Lock()
	delete(s.guilds, id)
	s.mu.Unlock()
}

func (s *State) MemberRemove(guildID, memberID string) error {
	guild, err := s.Guild(guildID)
	if err != nil {
		return err
	}
	s.mu.Lock() // want `s.mu is locked again for writing after RUnlock: the write goes through guild`
	defer s.mu.Unlock()
	for i, m := range guild.Members {
		if m.ID == memberID {
			guild.Members = append(guild.Members[:i], guild.Members[i+1:]...)
			return nil
		}
	}
	return errUnknown
}

func (s *State) RoleAdd(guildID, roleID, name string) error {
	guild, err := s.Guild(guildID)
	if err != nil {
		return err
	}
	s.mu.Lock() // want `s.mu is locked again for writing after RUnlock: the write goes through guild`
	defer s.mu.Unlock()
	if guild.Roles == nil {
		guild.Roles = make(map[string]string)
	}
	guild.Roles[roleID] = name
	return nil
}

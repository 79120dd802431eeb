// Package schemas parses schema descriptors, caching what it parsed. A
// Parser locks its cache, but every use of one in the module is a call on
// a parser its caller has just made and shows no one: Parse's check and
// fill cannot be raced. Parse is exported, so only the driver, which sees
// the packages calling it, can tell; it is marked so that it can.
package schemas

import (
	"fmt"
	"strings"
	"sync"
)

type Schema struct {
	Name   string
	Fields []string
	Index  map[string]int // field positions, by name
}

type Parser struct {
	mu    sync.RWMutex
	cache map[string]*Schema
}

// NewParser is the package's constructor: a new parser, seen by no one.
func NewParser() *Parser {
	return &Parser{cache: make(map[string]*Schema)}
}

// Parse looks the descriptor up in the cache, parses it on a miss and
// stores it: a second section of the lock, decided by the miss.
func (p *Parser) Parse(desc string) (*Schema, error) {
	p.mu.RLock()
	cached, ok := p.cache[desc]
	p.mu.RUnlock()
	if ok {
		return cached, nil
	}
	name, fields, found := strings.Cut(desc, ":")
	if !found {
		return nil, fmt.Errorf("bad descriptor %q", desc)
	}
	s := &Schema{Name: name, Fields: p.flatten(strings.Split(fields, ","), nil), Index: make(map[string]int)}
	for i, f := range s.Fields {
		s.Index[f] = i
	}
	p.mu.Lock() // want `p.mu is locked again for writing after RUnlock: cached was missing under the read lock`
	p.cache[desc] = s
	p.mu.Unlock()
	return s, nil
}

// flatten expands nested fields ("addr.city") into their parts, one level
// per call: a recursive helper that keeps the parser to itself.
func (p *Parser) flatten(fields, out []string) []string {
	for _, f := range fields {
		head, rest, nested := strings.Cut(f, ".")
		if nested {
			out = p.flatten([]string{rest}, append(out, head))
			continue
		}
		out = append(out, f)
	}
	return out
}

// Decode parses one descriptor with a parser of its own.
func Decode(desc string) (string, error) {
	p := NewParser()
	s, err := p.Parse(desc) // want `\(\*freshentries/schemas.Parser\).Parse fresh` `\(\*freshentries/schemas.Parser\).Parse locked`
	if err != nil {
		return "", err
	}
	return s.Name, nil
}

package lazyinit

import (
	crand "crypto/rand"
	"encoding/hex"
	"io"
	"slices"
	"sync"
)

// A copy-on-write tree keeps the nodes a change has copied so far. A node
// it has not copied yet is copied under a new random id, so the copy is
// a new entry: two changes copying one node make two copies, and neither
// replaces the other.

func newNodeID() []byte {
	id := make([]byte, 16)
	if _, err := io.ReadFull(crand.Reader, id); err != nil {
		panic(err)
	}
	return id
}

type treeNode struct {
	id   []byte
	name string
	keys []string
}

// clone copies n under a new id.
func (n *treeNode) clone() *treeNode {
	return &treeNode{id: newNodeID(), name: n.name, keys: slices.Clone(n.keys)}
}

// shallow copies n under its own id.
func (n *treeNode) shallow() *treeNode {
	return &treeNode{id: n.id, name: n.name, keys: n.keys}
}

type changeSet struct {
	mu     sync.RWMutex
	copied map[string]*treeNode
	named  map[string]*treeNode
}

func (c *changeSet) has(id []byte) bool {
	c.mu.RLock()
	defer c.mu.RUnlock()
	_, ok := c.copied[string(id)]
	return ok
}

func (c *changeSet) add(n *treeNode) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.copied[string(n.id)] = n
}

// writable hands back a node the change may modify.
func (c *changeSet) writable(n *treeNode) *treeNode {
	if c.has(n.id) {
		return n
	}
	cp := n.clone()
	c.add(cp)
	return cp
}

// writableRenamed gives the copy the id it looked up before storing it.
func (c *changeSet) writableRenamed(n *treeNode) *treeNode {
	if c.has(n.id) {
		return n
	}
	cp := n.clone()
	cp.id = n.id
	c.add(cp) // want `c.mu is locked again for writing by c.add after RUnlock`
	return cp
}

// addUnderName re-keys n by its name before storing it.
func (c *changeSet) addUnderName(n *treeNode) {
	c.mu.Lock()
	defer c.mu.Unlock()
	n.id = []byte(n.name)
	c.copied[string(n.id)] = n
}

// writableUnderName looks its entry up by the name and stores the copy
// under it: the copy's new id does not survive the helper.
func (c *changeSet) writableUnderName(n *treeNode) *treeNode {
	if c.has([]byte(n.name)) {
		return n
	}
	cp := n.clone()
	c.addUnderName(cp) // want `c.mu is locked again for writing by c.addUnderName after RUnlock`
	return cp
}

// writableShallow stores the copy under the id it looked up: a racer's
// copy of the same node is replaced.
func (c *changeSet) writableShallow(n *treeNode) *treeNode {
	if c.has(n.id) {
		return n
	}
	cp := n.shallow()
	c.add(cp) // want `c.mu is locked again for writing by c.add after RUnlock`
	return cp
}

func (c *changeSet) hasName(name string) bool {
	c.mu.RLock()
	defer c.mu.RUnlock()
	_, ok := c.named[name]
	return ok
}

func (c *changeSet) addNamed(n *treeNode) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.named[n.name] = n
}

// writableByName keys its copies by name, which clone copies: the new id
// does not make the entry new.
func (c *changeSet) writableByName(n *treeNode) *treeNode {
	if c.hasName(n.name) {
		return n
	}
	cp := n.clone()
	c.addNamed(cp) // want `c.mu is locked again for writing by c.addNamed after RUnlock`
	return cp
}

// newToken draws a session token: a buffer filled from crypto/rand.
func newToken() string {
	var b [16]byte
	if _, err := crand.Read(b[:]); err != nil {
		panic(err)
	}
	return hex.EncodeToString(b[:])
}

// Grants memoises a token per user: two first grants that both miss draw
// two tokens, and the first caller hands out one the map no longer holds.
type Grants struct {
	mu     sync.RWMutex
	tokens map[string]string
}

func (g *Grants) Token(user string) string {
	g.mu.RLock()
	t, ok := g.tokens[user]
	g.mu.RUnlock()
	if ok {
		return t
	}
	t = newToken()
	g.mu.Lock() // want `g.mu is locked again for writing after RUnlock`
	g.tokens[user] = t
	g.mu.Unlock()
	return t
}

func newTreeNode(name string) *treeNode { return &treeNode{id: newNodeID(), name: name} }

func (c *changeSet) get(id []byte) *treeNode {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.copied[string(id)]
}

// split hands back the separator and a new node holding the upper half of
// n's keys.
func (n *treeNode) split() (string, *treeNode) {
	mid := len(n.keys) / 2
	right := newTreeNode(n.name)
	right.keys = slices.Clone(n.keys[mid:])
	return n.keys[mid], right
}

// spill stores the upper half of n as a node of its own.
func (c *changeSet) spill(n *treeNode) string {
	sep, right := n.split()
	c.add(right)
	return sep
}

// keep stores n again under its own id.
func (c *changeSet) keep(n *treeNode) {
	c.add(n.shallow())
}

// grow splits the node stored under id. The half it stores is made from
// what it read, but as a new node under a new id: it replaces no one's.
func (c *changeSet) grow(id []byte) string {
	n := c.get(id)
	if n == nil || len(n.keys) < 2 {
		return ""
	}
	return c.spill(n)
}

// refresh stores what it read back under the same id, over whatever a
// racer stored there since.
func (c *changeSet) refresh(id []byte) {
	n := c.get(id)
	if n == nil {
		return
	}
	c.keep(n) // want `c.mu is locked again for writing by c.keep after RUnlock: the value written derives from n`
}

// placeholder is a package-level node handed to the helper as it is.
var placeholder = &treeNode{id: []byte("placeholder")}

// reserve stores the placeholder where it found none: every racer
// stores the same package-level node, set once.
func (c *changeSet) reserve() {
	if c.has(placeholder.id) {
		return
	}
	c.add(placeholder)
}

// reserveNil hands the helper a constant: no new object, so no fresh id.
func (c *changeSet) reserveNil() {
	if c.has(nil) {
		return
	}
	c.add(nil) // want `c.mu is locked again for writing by c.add after RUnlock`
}

// stash stores n as it is, or a copy under a new id.
func (c *changeSet) stash(n *treeNode, copyIt bool) {
	if copyIt {
		c.add(n.clone())
		return
	}
	c.add(n)
}

// stashIfMissing may store n under the id it found missing: only one of
// stash's two ways keys by a fresh id.
func (c *changeSet) stashIfMissing(n *treeNode, copyIt bool) {
	if c.has(n.id) {
		return
	}
	c.stash(n, copyIt) // want `c.mu is locked again for writing by c.stash after RUnlock`
}

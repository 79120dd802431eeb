package helpers

import "sync"

// Lookups that say "found" with a constant on each way out (return nil,
// false / return c, true) rather than passing on the lookup's own ok:
// the flag still says what the lookup found under the read lock.

type certificate struct{ der []byte }

type CertCache struct {
	mu    sync.RWMutex
	certs map[string]*certificate
}

func (c *CertCache) get(host string) (*certificate, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	cert, ok := c.certs[host]
	if !ok {
		return nil, false
	}
	return cert, true
}

func (c *CertCache) put(host string, cert *certificate) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.certs[host] = cert
}

// Issue makes a certificate for a host not found: two callers both miss,
// and the second put replaces the first one's certificate. Reported.
func (c *CertCache) Issue(host string) *certificate {
	if cert, ok := c.get(host); ok {
		return cert
	}
	cert := &certificate{der: []byte(host)}
	c.put(host, cert) // want `c.mu is locked again for writing by c.put after RUnlock: cert was missing under the read lock`
	return cert
}

// putIfAbsent looks again under the write lock and keeps what it finds.
func (c *CertCache) putIfAbsent(host string, cert *certificate) *certificate {
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.certs[host]; ok {
		return old
	}
	c.certs[host] = cert
	return cert
}

// IssueOnce fills the miss through putIfAbsent: re-checked. Silent.
func (c *CertCache) IssueOnce(host string) *certificate {
	if cert, ok := c.get(host); ok {
		return cert
	}
	return c.putIfAbsent(host, &certificate{der: []byte(host)})
}

// known says, with constants, whether the host's certificate is
// missing; Renew only logs it and then stores unconditionally. Silent.
func (c *CertCache) known(host string) (int, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	if _, ok := c.certs[host]; ok {
		return len(c.certs), true
	}
	return len(c.certs), false
}

func (c *CertCache) Renew(host string, logf func(string, ...any)) {
	if n, ok := c.known(host); !ok {
		logf("renewing unknown host %s (%d known)", host, n)
	}
	c.put(host, &certificate{der: []byte(host)})
}

// registered answers with constants too, as its only result.
func (c *CertCache) registered(host string) bool {
	c.mu.RLock()
	defer c.mu.RUnlock()
	if _, ok := c.certs[host]; ok {
		return true
	}
	return false
}

// Register fills a host registered found missing: reported.
func (c *CertCache) Register(host string) {
	if !c.registered(host) {
		c.put(host, &certificate{}) // want `c.mu is locked again for writing by c.put after RUnlock: the entry c.registered\(host\) looked for was missing under the read lock`
	}
}

// Audit only counts what registered says before storing anyway: the
// store does not depend on it. Silent.
func (c *CertCache) Audit(host string, misses *int) {
	if !c.registered(host) {
		*misses++
	}
	c.put(host, &certificate{})
}

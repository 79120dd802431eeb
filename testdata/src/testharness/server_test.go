package testharness

import (
	"net"
	"net/http"
	"sync"
	"testing"
)

// fakeCatalog is a catalog service the tests serve over HTTP to the code
// under test. Its handler records each request; the tests stage its
// entries directly between the requests they make.
type fakeCatalog struct {
	mu      sync.Mutex
	entries map[string]string
	hits    int
}

func (c *fakeCatalog) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	c.mu.Lock()
	c.hits++
	v := c.entries[r.URL.Path]
	c.mu.Unlock()
	_, _ = w.Write([]byte(v))
}

func (c *fakeCatalog) entry(k string) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.entries[k]
}

func (c *fakeCatalog) setEntry(k, v string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.entries[k] = v
}

// serveCatalog serves the fake on a goroutine that does nothing but run
// the server's Serve loop on the listener: it answers the test's own
// requests, one at a time as the test makes them.
func serveCatalog(t *testing.T, c *fakeCatalog) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: c}
	go func() {
		if err := srv.Serve(l); err != http.ErrServerClosed {
			t.Log(err)
		}
	}()
	t.Cleanup(func() { _ = srv.Close() })
	return "http://" + l.Addr().String()
}

// TestCatalogAlias stages an alias of an entry between two requests. The
// only goroutine the test starts serves its requests. Silent.
func TestCatalogAlias(t *testing.T) {
	c := &fakeCatalog{entries: map[string]string{"/a": "1"}}
	url := serveCatalog(t, c)
	if _, err := http.Get(url + "/a"); err != nil {
		t.Fatal(err)
	}
	c.setEntry("/alias", c.entry("/a"))
	if _, err := http.Get(url + "/alias"); err != nil {
		t.Fatal(err)
	}
}

// TestCatalogAliasDirect starts the Serve loop itself, with no closure
// around it. Silent.
func TestCatalogAliasDirect(t *testing.T) {
	c := &fakeCatalog{entries: map[string]string{"/a": "1"}}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: c}
	go srv.Serve(l)
	defer srv.Close()
	c.setEntry("/alias", c.entry("/a"))
}

// TestCatalogAliasReset serves the fake too, but its goroutine also
// resets the entries once the server stops: that write can land between
// the test's read and its write. Reported.
func TestCatalogAliasReset(t *testing.T) {
	c := &fakeCatalog{entries: map[string]string{"/a": "1"}}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: c}
	go func() {
		_ = srv.Serve(l)
		c.setEntry("/a", "")
	}()
	defer srv.Close()
	c.setEntry("/alias", c.entry("/a")) // want `c.mu is locked again by c.setEntry after the section that checked: the value written derives from c.entry\("/a"\)`
}

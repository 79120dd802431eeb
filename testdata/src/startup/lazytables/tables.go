// Package lazytables fills its tables on first use, through a sync.Once.
package lazytables

import (
	"errors"
	"strings"
	"sync"
)

var (
	once  sync.Once // guards initTables
	types sync.Map  // extension -> media type

	// loadSystem reads the system's own table; init installs it where
	// there is one.
	loadSystem func()
)

func init() { loadSystem = loadSystemTable }

var builtin = map[string]string{".html": "text/html", ".png": "image/png"}

func initTables() {
	for ext, typ := range builtin {
		types.Store(ext, typ)
	}
	if loadSystem != nil {
		loadSystem()
	}
}

var systemLines = []string{".css text/css", ".html text/x-html"}

// loadSystemTable keeps the first type it sees for an extension: the
// lookup and the store are two sections of the map, but the function
// runs once, inside once.Do, and every other writer of the table calls
// once.Do first, which returns only after it finished. Silent.
func loadSystemTable() {
	for _, line := range systemLines {
		ext, typ, ok := strings.Cut(line, " ")
		if !ok {
			continue
		}
		if _, seen := types.Load(ext); seen {
			continue
		}
		setType(ext, typ)
	}
}

func setType(ext, typ string) {
	types.Store(ext, typ)
}

// TypeByExtension returns the media type of ext.
func TypeByExtension(ext string) string {
	once.Do(initTables)
	v, _ := types.Load(ext)
	s, _ := v.(string)
	return s
}

// AddType sets the media type of ext, once the tables are filled.
func AddType(ext, typ string) error {
	if !strings.HasPrefix(ext, ".") {
		return errors.New("extension without a dot")
	}
	once.Do(initTables)
	setType(ext, typ)
	return nil
}

var (
	iconsOnce sync.Once
	icons     sync.Map // extension -> icon name
)

func initIcons() {
	for _, line := range systemLines {
		ext, typ, _ := strings.Cut(line, " ")
		if _, seen := icons.Load(ext); seen {
			continue
		}
		setIcon(ext, typ) // want `setIcon stores what icons.Load found missing, but another goroutine may have stored an entry since and this replaces it`
	}
}

func setIcon(ext, icon string) {
	icons.Store(ext, icon)
}

// Icon fills the icon table on first use.
func Icon(ext string) string {
	iconsOnce.Do(initIcons)
	v, _ := icons.Load(ext)
	s, _ := v.(string)
	return s
}

// SetIcon stores an icon without waiting for the table to be filled: it
// can land between initIcons's lookup and its store, which replaces it.
// Reported.
func SetIcon(ext, icon string) {
	setIcon(ext, icon)
}

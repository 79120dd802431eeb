package lazyinit

import "sync"

// Per-command settings, configured by users or defaulted on first use.
type CommandSettings struct{ TimeoutMS int }

var (
	settingsMu = &sync.RWMutex{}
	settings   = map[string]*CommandSettings{}
)

// Configure sets a command's settings, replacing what was there.
func Configure(name string, timeoutMS int) {
	settingsMu.Lock()
	defer settingsMu.Unlock()
	settings[name] = &CommandSettings{TimeoutMS: timeoutMS}
}

// settingsFor defaults a command it found unconfigured: a user's
// Configure in between is overwritten with the defaults.
func settingsFor(name string) *CommandSettings {
	settingsMu.RLock()
	s, ok := settings[name]
	settingsMu.RUnlock()
	if !ok {
		Configure(name, 1000) // want `settingsMu is locked again for writing by Configure after RUnlock: s was missing under the read lock`
		s = settingsFor(name)
	}
	return s
}

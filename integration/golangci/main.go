// Command golangci-lint-lockgap is golangci-lint v2 with lockgap linked in
// as a module plugin: the program `golangci-lint custom` would build from
// .custom-gcl.yml, built here from a module of its own so that lockgap's
// go.mod never depends on golangci-lint.
//
//	go build -o golangci-lint-lockgap .
//	./golangci-lint-lockgap run ./...   # with lockgap enabled in .golangci.yml
package main

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"

	"github.com/golangci/golangci-lint/v2/pkg/commands"
	"github.com/golangci/golangci-lint/v2/pkg/exitcodes"

	_ "github.com/lockgap/lockgap/plugin" // registers the "lockgap" module plugin
)

// Set with -ldflags "-X main.version=... -X main.date=..." to override
// what the build info gives.
var (
	version = ""
	commit  = ""
	date    = ""
)

func main() {
	if err := commands.Execute(buildInfo()); err != nil {
		fmt.Fprintf(os.Stderr, "The command is terminated due to an error: %v\n", err)
		os.Exit(exitcodes.Failure)
	}
}

// buildInfo reports the golangci-lint version linked in and the lockgap
// one, unless -ldflags set the version. golangci-lint salts its result
// cache with the version, so a lockgap built from a directory (this
// repository, through the replace directive) adds an id of the executable:
// "2.15.0-custom-lockgap-local-1a2b3c4d5e6f". Without it, a binary rebuilt
// after lockgap changed would be served the old binary's findings.
func buildInfo() commands.BuildInfo {
	info := commands.BuildInfo{Version: version, Commit: commit, Date: date, GoVersion: "unknown"}
	if bi, ok := debug.ReadBuildInfo(); ok {
		info.GoVersion = bi.GoVersion
		if info.Version == "" {
			info.Version = versionOf(bi.Deps)
		}
	}
	info.Version = cmp.Or(info.Version, "unknown")
	info.Commit = cmp.Or(info.Commit, "?")
	info.Date = cmp.Or(info.Date, "(unknown)")
	return info
}

func versionOf(deps []*debug.Module) string {
	gcl, lockgap := "unknown", "unknown"
	for _, m := range deps {
		switch m.Path {
		case "github.com/golangci/golangci-lint/v2":
			gcl = strings.TrimPrefix(m.Version, "v")
		case "github.com/lockgap/lockgap":
			lockgap = m.Version
			if m.Replace != nil {
				lockgap = m.Replace.Version // "(devel)" for a directory
				if !strings.HasPrefix(lockgap, "v") {
					lockgap = "local-" + executableID()
				}
			}
		}
	}
	return gcl + "-custom-lockgap-" + lockgap
}

// executableID hashes the head of the running executable, where the Go
// linker puts the build ID, which changes with the binary's content.
func executableID() string {
	exe, err := os.Executable()
	if err != nil {
		return "unknown"
	}
	f, err := os.Open(exe)
	if err != nil {
		return "unknown"
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.CopyN(h, f, 32<<10); err != nil && err != io.EOF {
		return "unknown"
	}
	return hex.EncodeToString(h.Sum(nil))[:12]
}

package main

import (
	"bytes"
	"cmp"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"maps"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"golang.org/x/tools/go/analysis"
)

// SARIF 2.1.0 output: the JSON tree the vet tool (or the in-process
// checker) prints, after keep(), rendered as one SARIF run. Only the parts
// of the format lockgap fills are declared here.

const (
	sarifVersion = "2.1.0"
	sarifSchema  = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/os/schemas/sarif-schema-2.1.0.json"
	srcRoot      = "%SRCROOT%"
)

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool               sarifTool                        `json:"tool"`
	Invocations        []sarifInvocation                `json:"invocations"`
	OriginalURIBaseIDs map[string]sarifArtifactLocation `json:"originalUriBaseIds,omitempty"`
	ColumnKind         string                           `json:"columnKind"`
	Results            []sarifResult                    `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name    string      `json:"name"`
	Version string      `json:"version"`
	Rules   []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID               string       `json:"id"`
	ShortDescription sarifMessage `json:"shortDescription"`
	FullDescription  sarifMessage `json:"fullDescription"`
	Help             sarifMessage `json:"help"`
}

type sarifMessage struct {
	Text string `json:"text"`
}

type sarifInvocation struct {
	ExecutionSuccessful bool                `json:"executionSuccessful"`
	Notifications       []sarifNotification `json:"toolExecutionNotifications,omitempty"`
}

type sarifNotification struct {
	Level   string       `json:"level"`
	Message sarifMessage `json:"message"`
}

type sarifResult struct {
	RuleID           string          `json:"ruleId"`
	RuleIndex        int             `json:"ruleIndex"`
	Level            string          `json:"level"`
	Message          sarifMessage    `json:"message"`
	Locations        []sarifLocation `json:"locations,omitempty"`
	RelatedLocations []sarifLocation `json:"relatedLocations,omitempty"`
	Fixes            []sarifFix      `json:"fixes,omitempty"`
}

type sarifLocation struct {
	ID               *int                  `json:"id,omitempty"`
	PhysicalLocation sarifPhysicalLocation `json:"physicalLocation"`
	Message          *sarifMessage         `json:"message,omitempty"`
}

type sarifPhysicalLocation struct {
	ArtifactLocation sarifArtifactLocation `json:"artifactLocation"`
	Region           *sarifRegion          `json:"region,omitempty"`
}

type sarifArtifactLocation struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

// sarifRegion is always given by lines and columns, columns counted in
// UTF-16 code units (run.columnKind); an empty region (start == end) is
// a point, and as a fix's deletedRegion an insertion.
type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn"`
	EndLine     int `json:"endLine"`
	EndColumn   int `json:"endColumn"`
}

type sarifFix struct {
	Description     sarifMessage          `json:"description"`
	ArtifactChanges []sarifArtifactChange `json:"artifactChanges"`
}

type sarifArtifactChange struct {
	ArtifactLocation sarifArtifactLocation `json:"artifactLocation"`
	Replacements     []sarifReplacement    `json:"replacements"`
}

type sarifReplacement struct {
	DeletedRegion   sarifRegion   `json:"deletedRegion"`
	InsertedContent *sarifMessage `json:"insertedContent,omitempty"` // an artifactContent; lockgap only sets its text
}

// jsonFix and jsonEdit are the suggested fixes as the vet tool prints
// them: byte offsets into the named file.
type jsonFix struct {
	Message string     `json:"message"`
	Edits   []jsonEdit `json:"edits"`
}

type jsonEdit struct {
	Filename string `json:"filename"`
	Start    int    `json:"start"`
	End      int    `json:"end"`
	New      string `json:"new"`
}

// sarifFlag is -sarif (SARIF on stdout) or -sarif=FILE.
type sarifFlag struct{ dest *string }

func (f sarifFlag) String() string {
	if f.dest == nil {
		return ""
	}
	return *f.dest
}

func (f sarifFlag) Set(v string) error {
	switch v {
	case "true", "-":
		*f.dest = "-"
	case "false":
		*f.dest = ""
	case "":
		return fmt.Errorf("empty file name")
	default:
		*f.dest = v
	}
	return nil
}

func (f sarifFlag) IsBoolFlag() bool { return true }

// sarifWriter renders findings for one run.
type sarifWriter struct {
	root      string // absolute directory relative URIs are taken from
	version   string
	analyzers []*analysis.Analyzer
	readFile  func(string) ([]byte, error)
	files     map[string]*sourceFile
}

// sourceFile is a file's content and the byte offset of each line's start.
type sourceFile struct {
	data  []byte
	lines []int
}

func newSourceFile(data []byte) *sourceFile {
	f := &sourceFile{data: data, lines: []int{0}}
	for i, b := range data {
		if b == '\n' {
			f.lines = append(f.lines, i+1)
		}
	}
	return f
}

// utf16Len counts the UTF-16 code units of b; each byte of an invalid
// UTF-8 sequence counts as one (it decodes to U+FFFD).
func utf16Len(b []byte) int {
	n := 0
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		n += utf16.RuneLen(r)
		b = b[size:]
	}
	return n
}

// utf16Column converts a 1-based byte column on a 1-based line to a
// 1-based column in UTF-16 code units. ok is false if the position is not
// in the file.
func (f *sourceFile) utf16Column(line, byteCol int) (col int, ok bool) {
	if f == nil || line < 1 || line > len(f.lines) || byteCol < 1 {
		return 0, false
	}
	start := f.lines[line-1]
	off := start + byteCol - 1
	end := len(f.data)
	if line < len(f.lines) {
		end = f.lines[line] - 1 // its '\n': the column after the line's last character
	}
	if off > end {
		return 0, false
	}
	return utf16Len(f.data[start:off]) + 1, true
}

// position converts a byte offset to a 1-based line and UTF-16 column.
func (f *sourceFile) position(off int) (line, col int, ok bool) {
	if f == nil || off < 0 || off > len(f.data) {
		return 0, 0, false
	}
	i, found := slices.BinarySearch(f.lines, off)
	if !found {
		i--
	}
	return i + 1, utf16Len(f.data[f.lines[i]:off]) + 1, true
}

func (w *sarifWriter) source(path string) *sourceFile {
	if f, ok := w.files[path]; ok {
		return f
	}
	var f *sourceFile
	if data, err := w.readFile(path); err == nil {
		f = newSourceFile(data)
	}
	w.files[path] = f
	return f
}

// parsePosn splits "file:line:col" (or "file:line", or "file") as
// token.Position.String writes it; the file name may contain colons.
func parsePosn(p string) (file string, line, col int) {
	file = p
	if i := strings.LastIndexByte(file, ':'); i >= 0 {
		if n, err := strconv.Atoi(file[i+1:]); err == nil {
			file, line = file[:i], n
			if j := strings.LastIndexByte(file, ':'); j >= 0 {
				if m, err := strconv.Atoi(file[j+1:]); err == nil {
					file, line, col = file[:j], m, n
				}
			}
		}
	}
	return file, line, col
}

// artifact names a file: relative to the root, with %SRCROOT%, when it is
// under it; otherwise by an absolute file URI.
func (w *sarifWriter) artifact(file string) sarifArtifactLocation {
	abs := file
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(w.root, abs)
	}
	if rel, err := filepath.Rel(w.root, abs); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel) {
		u := url.URL{Path: filepath.ToSlash(rel)}
		return sarifArtifactLocation{URI: u.String(), URIBaseID: srcRoot}
	}
	return sarifArtifactLocation{URI: fileURI(abs, false)}
}

// fileURI is the file:// URI of an absolute path (of a directory, with a
// trailing slash).
func fileURI(abs string, dir bool) string {
	p := filepath.ToSlash(abs)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // a Windows drive: file:///C:/...
	}
	if dir && !strings.HasSuffix(p, "/") {
		p += "/"
	}
	u := url.URL{Scheme: "file", Path: p}
	return u.String()
}

// region converts a diagnostic's range to SARIF. It falls back to the
// byte columns when the file cannot be read (they agree for ASCII), and
// to a point when the end is missing or elsewhere.
func (w *sarifWriter) region(posn, end string) (string, *sarifRegion) {
	file, line, col := parsePosn(posn)
	if line < 1 {
		return file, nil
	}
	src := w.source(file)
	r := &sarifRegion{StartLine: line, StartColumn: max(col, 1)}
	if c, ok := src.utf16Column(line, col); ok {
		r.StartColumn = c
	}
	r.EndLine, r.EndColumn = r.StartLine, r.StartColumn
	if endFile, endLine, endCol := parsePosn(end); endFile == file && endLine >= line && endCol >= 1 {
		c, ok := src.utf16Column(endLine, endCol)
		if !ok {
			c = endCol
		}
		if endLine > line || c >= r.StartColumn {
			r.EndLine, r.EndColumn = endLine, c
		}
	}
	return file, r
}

func (w *sarifWriter) location(posn, end string) (sarifLocation, bool) {
	file, r := w.region(posn, end)
	if file == "" || file == "-" {
		return sarifLocation{}, false
	}
	return sarifLocation{PhysicalLocation: sarifPhysicalLocation{ArtifactLocation: w.artifact(file), Region: r}}, true
}

// fix converts a suggested fix; ok is false if an edit cannot be placed
// in its file (unreadable, or offsets out of range).
func (w *sarifWriter) fix(raw json.RawMessage) (sarifFix, bool) {
	var jf jsonFix
	if json.Unmarshal(raw, &jf) != nil || len(jf.Edits) == 0 {
		return sarifFix{}, false
	}
	edits := slices.Clone(jf.Edits)
	slices.SortStableFunc(edits, func(a, b jsonEdit) int {
		return cmp.Or(strings.Compare(a.Filename, b.Filename), cmp.Compare(a.Start, b.Start), cmp.Compare(a.End, b.End))
	})
	f := sarifFix{Description: sarifMessage{Text: jf.Message}}
	for i, e := range edits {
		src := w.source(e.Filename)
		sl, sc, ok1 := src.position(e.Start)
		el, ec, ok2 := src.position(e.End)
		if !ok1 || !ok2 || e.End < e.Start {
			return sarifFix{}, false
		}
		rep := sarifReplacement{DeletedRegion: sarifRegion{StartLine: sl, StartColumn: sc, EndLine: el, EndColumn: ec}}
		if e.New != "" {
			rep.InsertedContent = &sarifMessage{Text: e.New}
		}
		if i == 0 || edits[i-1].Filename != e.Filename {
			f.ArtifactChanges = append(f.ArtifactChanges, sarifArtifactChange{ArtifactLocation: w.artifact(e.Filename)})
		}
		ch := &f.ArtifactChanges[len(f.ArtifactChanges)-1]
		ch.Replacements = append(ch.Replacements, rep)
	}
	return f, true
}

// level is "error" for lockgap's own internal errors, "warning" for
// every finding.
func level(message string) string {
	if strings.HasPrefix(message, "internal error") {
		return "error"
	}
	return "warning"
}

// rule describes a pass: its one-line summary, the paragraph after it,
// and its documentation as `lockgap help PASS` prints it.
func rule(a *analysis.Analyzer) sarifRule {
	paras := strings.Split(a.Doc, "\n\n")
	full := paras[0]
	if len(paras) > 1 {
		full = strings.Join(strings.Fields(paras[1]), " ")
	}
	return sarifRule{
		ID:               a.Name,
		ShortDescription: sarifMessage{Text: paras[0]},
		FullDescription:  sarifMessage{Text: full},
		Help:             sarifMessage{Text: strings.TrimSuffix(passHelp(a), "\n")},
	}
}

// passHelp renders a pass's documentation in the layout of the
// multichecker's `help PASS`: summary, the pass's own flags, the rest.
func passHelp(a *analysis.Analyzer) string {
	var b strings.Builder
	paras := strings.Split(a.Doc, "\n\n")
	fmt.Fprintf(&b, "%s: %s\n", a.Name, paras[0])
	prefixed := flag.NewFlagSet(a.Name, flag.ContinueOnError)
	a.Flags.VisitAll(func(f *flag.Flag) {
		prefixed.Var(f.Value, a.Name+"."+f.Name, f.Usage)
	})
	if countFlags(prefixed) > 0 {
		b.WriteString("\nAnalyzer flags:\n\n")
		prefixed.SetOutput(&b)
		prefixed.PrintDefaults()
	}
	if len(paras) > 1 {
		fmt.Fprintf(&b, "\n%s\n", strings.Join(paras[1:], "\n\n"))
	}
	return b.String()
}

func countFlags(fs *flag.FlagSet) int {
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	return n
}

// toolVersion is the main module's version, or "devel" with the VCS
// revision when the binary was built from a work tree.
func toolVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	v := "devel"
	var rev string
	var dirty bool
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev != "" {
		v += "-" + rev[:min(len(rev), 12)]
		if dirty {
			v += "-dirty"
		}
	}
	return v
}

// sarifRoot is the directory URIs are made relative to: the main
// module's root, else the workspace's, else the current directory.
func sarifRoot() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	out, err := exec.Command("go", "env", "GOMOD", "GOWORK").Output()
	if err == nil {
		for _, f := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			if f = strings.TrimSpace(f); f != "" && f != os.DevNull && f != "off" && filepath.IsAbs(f) {
				return filepath.Dir(f), nil
			}
		}
	}
	return wd, nil
}

// build renders the findings (and the run's errors, if any) as a SARIF
// log. Results are ordered by file, position, rule and message.
func (w *sarifWriter) build(t jsonTree, errs []string) *sarifLog {
	if w.files == nil {
		w.files = map[string]*sourceFile{}
	}
	if w.readFile == nil {
		w.readFile = os.ReadFile
	}
	driver := sarifDriver{Name: "lockgap", Version: w.version, Rules: []sarifRule{}}
	index := map[string]int{}
	for _, a := range w.analyzers {
		index[a.Name] = len(driver.Rules)
		driver.Rules = append(driver.Rules, rule(a))
	}
	type keyed struct {
		r    sarifResult
		file string
		line int
		col  int
	}
	var all []keyed
	for _, pkg := range slices.Sorted(maps.Keys(t)) {
		for _, pass := range slices.Sorted(maps.Keys(t[pkg])) {
			if _, ok := index[pass]; !ok {
				// Not a pass lockgap lists (cannot happen from its own
				// vet tool): still a rule, so the result can name it.
				index[pass] = len(driver.Rules)
				driver.Rules = append(driver.Rules, sarifRule{ID: pass, ShortDescription: sarifMessage{Text: pass}, FullDescription: sarifMessage{Text: pass}, Help: sarifMessage{Text: pass}})
			}
			for _, d := range t[pkg][pass] {
				r := sarifResult{RuleID: pass, RuleIndex: index[pass], Level: level(d.Message), Message: sarifMessage{Text: d.Message}}
				k := keyed{}
				if loc, ok := w.location(d.Posn, d.End); ok {
					r.Locations = []sarifLocation{loc}
					k.file = loc.PhysicalLocation.ArtifactLocation.URI
					if reg := loc.PhysicalLocation.Region; reg != nil {
						k.line, k.col = reg.StartLine, reg.StartColumn
					}
				}
				for _, rel := range d.Related {
					loc, ok := w.location(rel.Posn, rel.End)
					if !ok {
						continue
					}
					id := len(r.RelatedLocations) + 1
					loc.ID = &id
					loc.Message = &sarifMessage{Text: rel.Message}
					r.RelatedLocations = append(r.RelatedLocations, loc)
				}
				for _, raw := range d.SuggestedFixes {
					if f, ok := w.fix(raw); ok {
						r.Fixes = append(r.Fixes, f)
					}
				}
				k.r = r
				all = append(all, k)
			}
		}
	}
	slices.SortStableFunc(all, func(a, b keyed) int {
		return cmp.Or(strings.Compare(a.file, b.file), cmp.Compare(a.line, b.line), cmp.Compare(a.col, b.col),
			cmp.Compare(a.r.RuleIndex, b.r.RuleIndex), strings.Compare(a.r.Message.Text, b.r.Message.Text))
	})
	results := make([]sarifResult, 0, len(all))
	for _, k := range all {
		results = append(results, k.r)
	}
	inv := sarifInvocation{ExecutionSuccessful: len(errs) == 0}
	for _, e := range errs {
		inv.Notifications = append(inv.Notifications, sarifNotification{Level: "error", Message: sarifMessage{Text: e}})
	}
	return &sarifLog{
		Schema:  sarifSchema,
		Version: sarifVersion,
		Runs: []sarifRun{{
			Tool:               sarifTool{Driver: driver},
			Invocations:        []sarifInvocation{inv},
			OriginalURIBaseIDs: map[string]sarifArtifactLocation{srcRoot: {URI: fileURI(w.root, true)}},
			ColumnKind:         "utf16CodeUnits",
			Results:            results,
		}},
	}
}

func writeSARIF(out io.Writer, log *sarifLog) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(log); err != nil {
		return err
	}
	_, err := out.Write(b.Bytes())
	return err
}

// emitSARIF writes the findings as SARIF to dest ("-": stdout); when dest
// is a file, the usual text report goes to text.
func emitSARIF(findings jsonTree, errs []string, dest string, text io.Writer) error {
	root, err := sarifRoot()
	if err != nil {
		return err
	}
	w := &sarifWriter{root: root, version: toolVersion(), analyzers: passes}
	log := w.build(findings, errs)
	if dest == "-" {
		return writeSARIF(os.Stdout, log)
	}
	var b bytes.Buffer
	if err := writeSARIF(&b, log); err != nil {
		return err
	}
	if err := os.WriteFile(dest, b.Bytes(), 0o644); err != nil {
		return err
	}
	findings.printText(text)
	return nil
}

// checkerSARIF serves -sarif in -checker mode: the multichecker prints its
// JSON tree, which becomes SARIF as in the default mode. The exit status
// is that of the checker's text mode: 1 on errors, 3 with findings.
func checkerSARIF(args []string) int {
	dest, rest, err := sarifArgs(args)
	if err == nil && hasFlag(rest, "json") {
		err = fmt.Errorf("-sarif and -json are two output formats: give one")
	}
	if err == nil && (hasFlag(rest, "fix") || hasFlag(rest, "diff")) {
		err = fmt.Errorf("-sarif reports findings; it cannot be combined with -fix or -diff")
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "lockgap: %v\n", err)
		return 1
	}
	self, err := os.Executable()
	if err != nil {
		fmt.Fprintf(os.Stderr, "lockgap: %v\n", err)
		return 1
	}
	cmd := exec.Command(self, append([]string{"-json"}, rest...)...)
	var stdout bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, &stdout, os.Stderr
	runErr := cmd.Run()
	tree, treeErrs, err := decodeTrees(&stdout)
	if err != nil {
		fmt.Fprintf(os.Stderr, "lockgap: reading the checker's output: %v\n", err)
		return 1
	}
	// The checker prints its root packages only.
	roots := map[string]bool{}
	for id := range tree {
		roots[basePackage(id)] = true
	}
	findings := tree.keep(roots, true)
	errs := rootErrors(treeErrs, nil)
	if runErr != nil {
		errs = append(errs, "the analysis failed: "+runErr.Error())
	}
	if err := emitSARIF(findings, errs, dest, os.Stderr); err != nil {
		fmt.Fprintf(os.Stderr, "lockgap: writing SARIF: %v\n", err)
		return 1
	}
	switch {
	case len(errs) > 0:
		return 1
	case findings.count() > 0:
		return 3
	}
	return 0
}

// sarifArgs takes -sarif[=FILE] out of a checker-mode command line.
func sarifArgs(args []string) (dest string, rest []string, err error) {
	for _, a := range args {
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") || name != "sarif" {
			rest = append(rest, a)
			continue
		}
		if !hasValue {
			value = "true"
		}
		if err := (sarifFlag{&dest}).Set(value); err != nil {
			return "", nil, fmt.Errorf("-sarif: %v", err)
		}
	}
	return dest, rest, nil
}

// hasSARIF reports whether a command line asks for SARIF output.
func hasSARIF(args []string) bool {
	dest, _, err := sarifArgs(args)
	return err != nil || dest != ""
}

// hasFlag reports whether a boolean flag is set on a command line.
func hasFlag(args []string, name string) bool {
	return slices.ContainsFunc(args, func(a string) bool {
		return a == "-"+name || a == "--"+name || a == "-"+name+"=true" || a == "--"+name+"=true"
	})
}

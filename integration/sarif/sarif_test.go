package sarif

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// The parts of a SARIF log the test looks at.
type sarifLog struct {
	Version string `json:"version"`
	Runs    []struct {
		Tool struct {
			Driver struct {
				Name    string `json:"name"`
				Version string `json:"version"`
				Rules   []struct {
					ID   string  `json:"id"`
					Help message `json:"help"`
				} `json:"rules"`
			} `json:"driver"`
		} `json:"tool"`
		OriginalURIBaseIDs map[string]artifactLocation `json:"originalUriBaseIds"`
		ColumnKind         string                      `json:"columnKind"`
		Results            []struct {
			RuleID           string     `json:"ruleId"`
			RuleIndex        int        `json:"ruleIndex"`
			Level            string     `json:"level"`
			Message          message    `json:"message"`
			Locations        []location `json:"locations"`
			RelatedLocations []location `json:"relatedLocations"`
			Fixes            []struct {
				Description     message `json:"description"`
				ArtifactChanges []struct {
					ArtifactLocation artifactLocation `json:"artifactLocation"`
					Replacements     []struct {
						DeletedRegion   region   `json:"deletedRegion"`
						InsertedContent *message `json:"insertedContent"`
					} `json:"replacements"`
				} `json:"artifactChanges"`
			} `json:"fixes"`
		} `json:"results"`
	} `json:"runs"`
}

type message struct {
	Text string `json:"text"`
}

type artifactLocation struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId"`
}

type region struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn"`
	EndLine     int `json:"endLine"`
	EndColumn   int `json:"endColumn"`
}

type location struct {
	ID               int      `json:"id"`
	Message          *message `json:"message"`
	PhysicalLocation struct {
		ArtifactLocation artifactLocation `json:"artifactLocation"`
		Region           region           `json:"region"`
	} `json:"physicalLocation"`
}

// The diagnostics as `lockgap -json` prints them (byte columns).
type jsonTree map[string]map[string][]struct {
	Posn    string `json:"posn"`
	Related []struct {
		Posn string `json:"posn"`
	} `json:"related"`
}

const fixturePath = "cache/cache.go"

// TestSARIF builds lockgap, runs it with -sarif on testdata/fixture and
// checks the log: its content, and its validity against the SARIF 2.1.0
// schema named by LOCKGAP_SARIF_SCHEMA.
func TestSARIF(t *testing.T) {
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "lockgap")
	build := exec.Command("go", "build", "-o", bin, "./cmd/lockgap")
	build.Dir = filepath.Join("..", "..")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building lockgap: %v\n%s", err, out)
	}
	fixture, fixed := filepath.Join(tmp, "fixture"), filepath.Join(tmp, "fixed")
	copyDir(t, filepath.Join("testdata", "fixture"), fixture)
	copyDir(t, filepath.Join("testdata", "fixture"), fixed)
	env := append(os.Environ(), "GOFLAGS=", "GOPROXY=off", "GOWORK=off")
	run := func(dir string, wantCode int, args ...string) []byte {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Dir, cmd.Env = dir, env
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if code != wantCode {
			t.Fatalf("lockgap %s: exit %d, want %d\n%s%s", strings.Join(args, " "), code, wantCode, stdout.Bytes(), stderr.Bytes())
		}
		return stdout.Bytes()
	}
	out := run(fixture, 3, "-sarif", "./...")
	byteCols := run(fixture, 3, "-json", "./...")
	run(fixed, 0, "-fix", "./...")

	t.Run("content", func(t *testing.T) {
		checkContent(t, out, byteCols, fixture, fixed)
	})
	t.Run("schema", func(t *testing.T) {
		validate(t, out)
	})
}

func checkContent(t *testing.T, out, byteCols []byte, fixture, fixed string) {
	var log sarifLog
	if err := json.Unmarshal(out, &log); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if log.Version != "2.1.0" || len(log.Runs) != 1 {
		t.Fatalf("version %q, %d runs", log.Version, len(log.Runs))
	}
	run := log.Runs[0]
	if d := run.Tool.Driver; d.Name != "lockgap" || d.Version == "" {
		t.Errorf("driver %q version %q", d.Name, d.Version)
	}
	var ruleIDs []string
	for _, r := range run.Tool.Driver.Rules {
		ruleIDs = append(ruleIDs, r.ID)
		if !strings.HasPrefix(r.Help.Text, r.ID+": ") {
			t.Errorf("rule %s help: %q", r.ID, r.Help.Text)
		}
	}
	if want := []string{"rlockgap", "staleguard", "mutexmapdelete"}; !slices.Equal(ruleIDs, want) {
		t.Errorf("rules %q, want %q", ruleIDs, want)
	}
	if run.ColumnKind != "utf16CodeUnits" {
		t.Errorf("columnKind %q", run.ColumnKind)
	}
	root := run.OriginalURIBaseIDs["%SRCROOT%"].URI
	if u, err := url.Parse(root); err != nil || u.Scheme != "file" || !strings.HasSuffix(u.Path, "/") || !sameDir(t, u.Path, fixture) {
		t.Errorf("%%SRCROOT%% is %q, want the file URI of %s/", root, fixture)
	}

	var got []string
	for _, r := range run.Results {
		got = append(got, r.RuleID)
		if run.Tool.Driver.Rules[r.RuleIndex].ID != r.RuleID || r.Level != "warning" || r.Message.Text == "" {
			t.Errorf("result %s: ruleIndex %d, level %q, message %q", r.RuleID, r.RuleIndex, r.Level, r.Message.Text)
		}
		if len(r.RelatedLocations) != 2 || r.RelatedLocations[0].ID != 1 || r.RelatedLocations[1].Message == nil {
			t.Errorf("result %s: related locations %+v", r.RuleID, r.RelatedLocations)
		}
		for _, l := range append(slices.Clone(r.Locations), r.RelatedLocations...) {
			if a := l.PhysicalLocation.ArtifactLocation; a != (artifactLocation{fixturePath, "%SRCROOT%"}) {
				t.Errorf("result %s: artifact %+v, want %s relative to %%SRCROOT%%", r.RuleID, a, fixturePath)
			}
		}
		if len(r.Fixes) != 1 || len(r.Fixes[0].ArtifactChanges) != 1 || r.Fixes[0].ArtifactChanges[0].ArtifactLocation.URI != fixturePath {
			t.Errorf("result %s: fixes %+v", r.RuleID, r.Fixes)
		}
	}
	if want := []string{"rlockgap", "staleguard"}; !slices.Equal(got, want) {
		t.Fatalf("results %q, want %q", got, want)
	}

	// Columns: each location's is the UTF-16 count of what precedes Go's
	// byte column on the line. The findings' lines start with ç (two
	// bytes, one unit) and 𝑐 (four bytes, two units, a surrogate pair).
	src, err := os.ReadFile(filepath.Join(fixture, fixturePath))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(src), "\n")
	var tree jsonTree
	if err := json.Unmarshal(byteCols, &tree); err != nil {
		t.Fatal(err)
	}
	var goPosns [][]string // per finding: its position, then its related ones
	for _, byPass := range tree {
		for _, diags := range byPass {
			for _, d := range diags {
				p := []string{d.Posn}
				for _, r := range d.Related {
					p = append(p, r.Posn)
				}
				goPosns = append(goPosns, p)
			}
		}
	}
	slices.SortFunc(goPosns, func(a, b []string) int { return lineOf(t, a[0]) - lineOf(t, b[0]) })
	if len(goPosns) != len(run.Results) {
		t.Fatalf("%d findings in -json, %d in -sarif", len(goPosns), len(run.Results))
	}
	for i, r := range run.Results {
		locs := append(slices.Clone(r.Locations), r.RelatedLocations...)
		for j, l := range locs {
			line, byteCol := lineCol(t, goPosns[i][j])
			reg := l.PhysicalLocation.Region
			want := len(utf16.Encode([]rune(lines[line-1][:byteCol-1]))) + 1
			if reg.StartLine != line || reg.StartColumn != want {
				t.Errorf("%s location %d: %d:%d, want %d:%d (Go: byte column %d)", r.RuleID, j, reg.StartLine, reg.StartColumn, line, want, byteCol)
			}
		}
	}
	// A finding spans the call (ç.mu.Lock()): it starts at the receiver
	// and ends past it, where UTF-16 and byte columns differ (ç is two
	// bytes and one UTF-16 unit, 𝑐 four bytes and two units).
	for i, want := range []struct{ line, col, byteCol, endCol int }{{25, 2, 2, 13}, {45, 2, 2, 14}} {
		reg := run.Results[i].Locations[0].PhysicalLocation.Region
		_, byteCol := lineCol(t, goPosns[i][0])
		if reg.StartLine != want.line || reg.StartColumn != want.col || byteCol != want.byteCol || reg.EndLine != want.line || reg.EndColumn != want.endCol {
			t.Errorf("result %d at %d:%d-%d:%d (byte column %d), want %d:%d-%d:%d (byte column %d)", i,
				reg.StartLine, reg.StartColumn, reg.EndLine, reg.EndColumn, byteCol, want.line, want.col, want.line, want.endCol, want.byteCol)
		}
	}

	// Fixes: the SARIF replacements, applied to the original file, give
	// what lockgap -fix wrote.
	type edit struct {
		start, end int
		text       string
	}
	var edits []edit
	for _, r := range run.Results {
		for _, f := range r.Fixes {
			for _, ch := range f.ArtifactChanges {
				for _, rep := range ch.Replacements {
					d := rep.DeletedRegion
					e := edit{start: offset(t, lines, d.StartLine, d.StartColumn), end: offset(t, lines, d.EndLine, d.EndColumn)}
					if rep.InsertedContent != nil {
						e.text = rep.InsertedContent.Text
					}
					edits = append(edits, e)
				}
			}
		}
	}
	slices.SortFunc(edits, func(a, b edit) int { return b.start - a.start })
	text := string(src)
	for _, e := range edits {
		text = text[:e.start] + e.text + text[e.end:]
	}
	want, err := os.ReadFile(filepath.Join(fixed, fixturePath))
	if err != nil {
		t.Fatal(err)
	}
	if text != string(want) {
		t.Errorf("SARIF fixes applied:\n%s\nlockgap -fix:\n%s", text, want)
	}
	if text == string(src) {
		t.Error("the fixes changed nothing")
	}
}

// validate checks the log against the SARIF 2.1.0 schema, and that the
// validator rejects a log made invalid.
func validate(t *testing.T, out []byte) {
	schemaPath := os.Getenv("LOCKGAP_SARIF_SCHEMA")
	if schemaPath == "" {
		const how = "set it to package/lib/schemas/sarif-2.1.0-rtm.5.json from `npm pack @microsoft/jest-sarif@1.0.0-beta.0`, as .ci/run does"
		if ci := os.Getenv("CI"); ci != "" && ci != "0" && ci != "false" {
			t.Fatalf("CI=%s but LOCKGAP_SARIF_SCHEMA is unset: %s", ci, how)
		}
		t.Skip("LOCKGAP_SARIF_SCHEMA is unset, so the log is not validated against the SARIF schema: " + how)
	}
	raw, err := os.ReadFile(schemaPath)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(raw, []byte(`"title": "Static Analysis Results Format (SARIF) Version 2.1.0`)) {
		t.Fatalf("%s is not the SARIF 2.1.0 schema", schemaPath)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	schema, err := c.Compile(schemaPath)
	if err != nil {
		t.Fatal(err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	if err := schema.Validate(inst); err != nil {
		t.Errorf("lockgap's SARIF does not validate: %v", err)
	}

	// A column 0 and an unknown property must be rejected.
	bad, _ := jsonschema.UnmarshalJSON(bytes.NewReader(out))
	res := bad.(map[string]any)["runs"].([]any)[0].(map[string]any)["results"].([]any)[0].(map[string]any)
	res["locations"].([]any)[0].(map[string]any)["physicalLocation"].(map[string]any)["region"].(map[string]any)["startColumn"] = json.Number("0")
	if err := schema.Validate(bad); err == nil || !strings.Contains(err.Error(), "minimum") {
		t.Errorf("a column 0 validates: %v", err)
	}
	bad, _ = jsonschema.UnmarshalJSON(bytes.NewReader(out))
	bad.(map[string]any)["runs"].([]any)[0].(map[string]any)["results"].([]any)[0].(map[string]any)["lockgap"] = true
	if err := schema.Validate(bad); err == nil {
		t.Error("an unknown result property validates")
	}
}

func copyDir(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, path)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(to, rel), 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(to, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

func sameDir(t *testing.T, a, b string) bool {
	ra, err1 := filepath.EvalSymlinks(a)
	rb, err2 := filepath.EvalSymlinks(b)
	return err1 == nil && err2 == nil && ra == rb
}

// lineCol parses the line and byte column of "file:line:col".
func lineCol(t *testing.T, posn string) (line, col int) {
	t.Helper()
	parts := strings.Split(posn, ":")
	if len(parts) < 3 {
		t.Fatalf("position %q", posn)
	}
	line, err1 := strconv.Atoi(parts[len(parts)-2])
	col, err2 := strconv.Atoi(parts[len(parts)-1])
	if err1 != nil || err2 != nil {
		t.Fatalf("position %q", posn)
	}
	return line, col
}

func lineOf(t *testing.T, posn string) int {
	line, _ := lineCol(t, posn)
	return line
}

// offset converts a 1-based line and UTF-16 column to a byte offset.
func offset(t *testing.T, lines []string, line, col int) int {
	t.Helper()
	off := 0
	for _, l := range lines[:line-1] {
		off += len(l) + 1
	}
	units := 1
	for i, r := range lines[line-1] + "\n" {
		if units == col {
			return off + i
		}
		units += len(utf16.Encode([]rune{r}))
	}
	t.Fatalf("column %d is not on line %d", col, line)
	return 0
}

package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf16"
)

// src has runes of every UTF-8 length and UTF-16 width on its lines:
// é (2 bytes, 1 unit), 世 (3 bytes, 1 unit), 𝑥 (4 bytes, 2 units) and an
// invalid byte (1 byte, decoded as U+FFFD: 1 unit).
const src = "package p\n" +
	"\n" +
	"var é, 世 = 1, 2 // x\n" +
	"func 𝑥() { println(\"𝑥𝑥\", é) }\n" +
	"var s = \"\xff\" + \"z\"\n" +
	"// no newline at the end"

// utf16ColumnOf is the test's own conversion: the UTF-16 length of the
// line's text before the byte column, plus one.
func utf16ColumnOf(text string, line, byteCol int) int {
	l := strings.Split(text, "\n")[line-1]
	return len(utf16.Encode([]rune(l[:byteCol-1]))) + 1
}

func TestUTF16Column(t *testing.T) {
	f := newSourceFile([]byte(src))
	for _, tc := range []struct {
		line    int
		find    string // the text the byte column points at
		wantCol int
	}{
		{1, "package", 1},
		{3, "é,", 5},
		{3, "世", 8},    // after "var é, ": 7 units
		{3, "= 1", 10}, // "var é, 世 " is 9 units
		{3, "// x", 17},
		{4, "𝑥()", 6},
		{4, "()", 8}, // 𝑥 is a surrogate pair
		{4, "é)", 29},
		{5, "+", 13}, // the invalid byte counts one unit, as U+FFFD
		{6, "end", 22},
	} {
		line := strings.Split(src, "\n")[tc.line-1]
		byteCol := strings.Index(line, tc.find) + 1
		got, ok := f.utf16Column(tc.line, byteCol)
		if !ok || got != tc.wantCol {
			t.Errorf("line %d %q (byte column %d): got %d, %v; want %d", tc.line, tc.find, byteCol, got, ok, tc.wantCol)
		}
		if want := utf16ColumnOf(src, tc.line, byteCol); got != want {
			t.Errorf("line %d %q: got %d, independent conversion %d", tc.line, tc.find, got, want)
		}
	}
	// The column after a line's last character is on the line; one more
	// is not, nor is a line past the end.
	l3 := strings.Split(src, "\n")[2]
	if got, ok := f.utf16Column(3, len(l3)+1); !ok || got != utf16ColumnOf(src, 3, len(l3)+1) {
		t.Errorf("end of line 3: %d, %v", got, ok)
	}
	if _, ok := f.utf16Column(3, len(l3)+2); ok {
		t.Error("column past the end of line 3 accepted")
	}
	if _, ok := f.utf16Column(7, 1); ok {
		t.Error("line 7 accepted")
	}
	var none *sourceFile
	if _, ok := none.utf16Column(1, 1); ok {
		t.Error("unreadable file accepted")
	}
}

// offsetOf inverts sourceFile.position, by walking the text's runes.
func offsetOf(t *testing.T, text string, line, col int) int {
	t.Helper()
	off := 0
	for l := 1; l < line; l++ {
		i := strings.IndexByte(text[off:], '\n')
		if i < 0 {
			t.Fatalf("line %d past the end", line)
		}
		off += i + 1
	}
	for units := 1; units < col; {
		r, size := []rune(text[off:])[0], len(string([]rune(text[off:])[0]))
		if text[off] == 0xff { // invalid byte: one unit, one byte
			r, size = 0xFFFD, 1
		}
		units += len(utf16.Encode([]rune{r}))
		off += size
	}
	return off
}

func TestPositionRoundTrip(t *testing.T) {
	f := newSourceFile([]byte(src))
	for off := 0; off <= len(src); off++ {
		line, col, ok := f.position(off)
		if !ok {
			t.Fatalf("offset %d: not in the file", off)
		}
		// Offsets inside a rune have no column of their own.
		if off < len(src) && src[off]&0xC0 == 0x80 {
			continue
		}
		if back := offsetOf(t, src, line, col); back != off {
			t.Errorf("offset %d -> %d:%d -> offset %d", off, line, col, back)
		}
	}
	if _, _, ok := f.position(len(src) + 1); ok {
		t.Error("offset past the end accepted")
	}
}

// testWriter renders findings for files held in memory under root.
func testWriter(root string, files map[string]string) *sarifWriter {
	return &sarifWriter{root: root, version: "test", analyzers: passes, readFile: func(name string) ([]byte, error) {
		if s, ok := files[name]; ok {
			return []byte(s), nil
		}
		return nil, os.ErrNotExist
	}}
}

func applyByteEdits(text string, edits []jsonEdit) string {
	slices.SortFunc(edits, func(a, b jsonEdit) int { return b.Start - a.Start })
	for _, e := range edits {
		text = text[:e.Start] + e.New + text[e.End:]
	}
	return text
}

func TestFixRoundTrip(t *testing.T) {
	root := filepath.FromSlash("/src/mod")
	name := filepath.Join(root, "p", "p.go")
	other := filepath.Join(root, "p", "q.go")
	const q = "package p // ü\n"
	// An insertion after a surrogate pair, a replacement spanning lines,
	// a deletion after an invalid byte, and an edit in a second file.
	edits := []jsonEdit{
		{name, strings.Index(src, "() {"), strings.Index(src, "() {"), "Ÿ"},
		{name, strings.Index(src, "世"), strings.Index(src, "𝑥()"), "世 = 1, 2\nfunc "},
		{name, strings.Index(src, "+ \"z\""), strings.Index(src, "+ \"z\"") + 2, ""},
		{other, strings.Index(q, "ü"), strings.Index(q, "ü") + len("ü"), "u"},
	}
	raw, _ := json.Marshal(jsonFix{Message: "fix it", Edits: edits})
	tree := jsonTree{"p": {"rlockgap": {{Posn: name + ":3:5", End: name + ":3:7", Message: "m", SuggestedFixes: []json.RawMessage{raw}}}}}
	w := testWriter(root, map[string]string{name: src, other: q})
	log := w.build(tree, nil)
	res := log.Runs[0].Results
	if len(res) != 1 || len(res[0].Fixes) != 1 {
		t.Fatalf("want one result with one fix: %+v", res)
	}
	fix := res[0].Fixes[0]
	if fix.Description.Text != "fix it" || len(fix.ArtifactChanges) != 2 {
		t.Fatalf("fix: %+v", fix)
	}
	texts := map[string]string{"p/p.go": src, "p/q.go": q}
	for _, ch := range fix.ArtifactChanges {
		orig, ok := texts[ch.ArtifactLocation.URI]
		text := orig
		if !ok || ch.ArtifactLocation.URIBaseID != srcRoot {
			t.Fatalf("artifact %+v", ch.ArtifactLocation)
		}
		// Apply the SARIF replacements, back to front, each region taken
		// in the original text.
		for i := len(ch.Replacements) - 1; i >= 0; i-- {
			r := ch.Replacements[i]
			d := r.DeletedRegion
			start, end := offsetOf(t, orig, d.StartLine, d.StartColumn), offsetOf(t, orig, d.EndLine, d.EndColumn)
			ins := ""
			if r.InsertedContent != nil {
				ins = r.InsertedContent.Text
			}
			text = text[:start] + ins + text[end:]
		}
		texts[ch.ArtifactLocation.URI] = text
	}
	var pEdits, qEdits []jsonEdit
	for _, e := range edits {
		if e.Filename == name {
			pEdits = append(pEdits, e)
		} else {
			qEdits = append(qEdits, e)
		}
	}
	if want := applyByteEdits(src, pEdits); texts["p/p.go"] != want {
		t.Errorf("p.go through SARIF:\n%s\nwant:\n%s", texts["p/p.go"], want)
	}
	if want := applyByteEdits(q, qEdits); texts["p/q.go"] != want {
		t.Errorf("q.go through SARIF:\n%s\nwant:\n%s", texts["p/q.go"], want)
	}
	// The deletion after the invalid byte has no inserted content.
	for _, r := range fix.ArtifactChanges[0].Replacements {
		if r.InsertedContent != nil && r.InsertedContent.Text == "" {
			t.Error("empty insertedContent")
		}
	}

	// A fix into a file that cannot be read is left out, not misplaced.
	edits[0].Filename = filepath.Join(root, "gone.go")
	raw, _ = json.Marshal(jsonFix{Message: "fix it", Edits: edits[:1]})
	tree["p"]["rlockgap"][0].SuggestedFixes = []json.RawMessage{raw}
	if log := testWriter(root, map[string]string{name: src}).build(tree, nil); len(log.Runs[0].Results[0].Fixes) != 0 {
		t.Errorf("fix into an unreadable file kept: %+v", log.Runs[0].Results[0].Fixes)
	}
}

func TestSARIFRules(t *testing.T) {
	log := testWriter(filepath.FromSlash("/src/mod"), nil).build(jsonTree{}, nil)
	run := log.Runs[0]
	if log.Version != "2.1.0" || len(log.Runs) != 1 || run.ColumnKind != "utf16CodeUnits" {
		t.Errorf("log: version %q, %d runs, columnKind %q", log.Version, len(log.Runs), run.ColumnKind)
	}
	d := run.Tool.Driver
	if d.Name != "lockgap" || d.Version != "test" {
		t.Errorf("driver %q %q", d.Name, d.Version)
	}
	if len(d.Rules) != len(passes) {
		t.Fatalf("%d rules for %d passes", len(d.Rules), len(passes))
	}
	for i, p := range passes {
		r := d.Rules[i]
		summary, rest, _ := strings.Cut(p.Doc, "\n\n")
		if r.ID != p.Name || r.ShortDescription.Text != summary || r.FullDescription.Text == "" || r.FullDescription.Text == summary {
			t.Errorf("rule %d: %+v", i, r)
		}
		if !strings.HasPrefix(r.Help.Text, p.Name+": "+summary+"\n") || !strings.HasSuffix(r.Help.Text, strings.TrimSpace(rest)) {
			t.Errorf("rule %s help:\n%s", p.Name, r.Help.Text)
		}
		if !strings.Contains(r.Help.Text, "\nAnalyzer flags:\n\n  -"+p.Name+".unused_ignores\n") {
			t.Errorf("rule %s help lacks the pass's flags:\n%s", p.Name, r.Help.Text)
		}
	}
	var b bytes.Buffer
	if err := writeSARIF(&b, log); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"results": []`, `"executionSuccessful": true`, `"columnKind": "utf16CodeUnits"`} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("output lacks %s:\n%s", want, b.String())
		}
	}
	for _, absent := range []string{"helpUri", "informationUri"} {
		if strings.Contains(b.String(), absent) {
			t.Errorf("output has %s", absent)
		}
	}
}

func TestSARIFURIs(t *testing.T) {
	root := t.TempDir()
	w := &sarifWriter{root: root}
	for _, tc := range []struct {
		file, uri, base string
	}{
		{filepath.Join(root, "a.go"), "a.go", srcRoot},
		{filepath.Join(root, "pkg", "sub", "b.go"), "pkg/sub/b.go", srcRoot},
		{filepath.Join(root, "with space", "c d.go"), "with%20space/c%20d.go", srcRoot},
		{filepath.Join(root, "x:y.go"), "./x:y.go", srcRoot},
		{filepath.Join(root, "..dots", "e.go"), "..dots/e.go", srcRoot},
		{filepath.Join(filepath.Dir(root), "elsewhere", "f.go"), fileURI(filepath.Join(filepath.Dir(root), "elsewhere", "f.go"), false), ""},
	} {
		got := w.artifact(tc.file)
		if got.URI != tc.uri || got.URIBaseID != tc.base {
			t.Errorf("%s: got %+v, want %q %q", tc.file, got, tc.uri, tc.base)
		}
	}
	outside := w.artifact(filepath.Join(filepath.Dir(root), "elsewhere", "f.go")).URI
	if !strings.HasPrefix(outside, "file:///") || !strings.HasSuffix(outside, "/elsewhere/f.go") {
		t.Errorf("outside the root: %s", outside)
	}
	if got := fileURI(root, true); !strings.HasPrefix(got, "file:///") || !strings.HasSuffix(got, "/") {
		t.Errorf("root URI %s", got)
	}
	log := (&sarifWriter{root: root}).build(jsonTree{}, nil)
	if got := log.Runs[0].OriginalURIBaseIDs[srcRoot].URI; got != fileURI(root, true) {
		t.Errorf("originalUriBaseIds: %s", got)
	}
}

func TestParsePosn(t *testing.T) {
	for _, tc := range []struct {
		in        string
		file      string
		line, col int
	}{
		{"/a/b.go:3:4", "/a/b.go", 3, 4},
		{`C:\a\b.go:3:4`, `C:\a\b.go`, 3, 4},
		{"/a/b.go:7", "/a/b.go", 7, 0},
		{"/a/b.go", "/a/b.go", 0, 0},
		{"-", "-", 0, 0},
	} {
		file, line, col := parsePosn(tc.in)
		if file != tc.file || line != tc.line || col != tc.col {
			t.Errorf("%s: %q %d %d", tc.in, file, line, col)
		}
	}
}

// TestSARIFResults: regions in UTF-16 columns, related locations with
// ids, levels, and an order that does not depend on map iteration.
func TestSARIFResults(t *testing.T) {
	root := filepath.FromSlash("/src/mod")
	p := filepath.Join(root, "p", "p.go")
	a := filepath.Join(root, "a", "a.go")
	files := map[string]string{p: src, a: "package a\n\nfunc f() {}\n"}
	tree := jsonTree{
		"example.com/p": {
			"staleguard": {{Posn: p + ":4:30", End: p + ":4:33", Message: "second"}},
			"rlockgap": {{Posn: p + ":4:6", End: p + ":4:10", Message: "first", Related: []jsonRelated{
				{Posn: p + ":3:12", End: p + ":3:12", Message: "read here"},
				{Posn: p + ":5:15", Message: "unlocked here"},
			}}},
		},
		"example.com/a": {
			"mutexmapdelete": {{Posn: a + ":3:1", End: a + ":3:12", Message: "internal error analysing f (please report): boom"}},
			"rlockgap":       {{Posn: a + ":1:1", Message: "no end"}},
		},
	}
	var first []byte
	for range 5 {
		log := testWriter(root, files).build(tree, []string{"example.com/a: rlockgap: oops"})
		var b bytes.Buffer
		if err := writeSARIF(&b, log); err != nil {
			t.Fatal(err)
		}
		if first == nil {
			first = b.Bytes()
			res := log.Runs[0].Results
			var got []string
			for _, r := range res {
				got = append(got, r.RuleID+" "+r.Level+" "+r.Message.Text)
			}
			want := []string{
				"rlockgap warning no end",
				"mutexmapdelete error internal error analysing f (please report): boom",
				"rlockgap warning first",
				"staleguard warning second",
			}
			if !slices.Equal(got, want) {
				t.Fatalf("results:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			for _, r := range res {
				if log.Runs[0].Tool.Driver.Rules[r.RuleIndex].ID != r.RuleID {
					t.Errorf("ruleIndex %d for %s", r.RuleIndex, r.RuleID)
				}
			}
			// 𝑥 (two units) before byte column 6 on line 4 is "func ":
			// column 6; "()" at byte 10 is at column 8.
			if reg := res[2].Locations[0].PhysicalLocation.Region; *reg != (sarifRegion{4, 6, 4, 8}) {
				t.Errorf("region %+v", *reg)
			}
			rel := res[2].RelatedLocations
			if len(rel) != 2 || *rel[0].ID != 1 || *rel[1].ID != 2 || rel[0].Message.Text != "read here" {
				t.Fatalf("related %+v", rel)
			}
			if reg := rel[1].PhysicalLocation.Region; *reg != (sarifRegion{5, 15, 5, 15}) {
				t.Errorf("related region without an end: %+v", *reg)
			}
			if reg := res[0].Locations[0].PhysicalLocation.Region; *reg != (sarifRegion{1, 1, 1, 1}) {
				t.Errorf("region without an end: %+v", *reg)
			}
			inv := log.Runs[0].Invocations[0]
			if inv.ExecutionSuccessful || len(inv.Notifications) != 1 {
				t.Errorf("invocation %+v", inv)
			}
		} else if !bytes.Equal(first, b.Bytes()) {
			t.Fatal("output differs between runs")
		}
	}
}

func TestSARIFFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
		err  string
	}{
		{[]string{"-sarif", "./..."}, "-", ""},
		{[]string{"-sarif=out.sarif", "./..."}, "out.sarif", ""},
		{[]string{"-sarif=-", "./..."}, "-", ""},
		{[]string{"./..."}, "", ""},
		{[]string{"-sarif", "-json", "./..."}, "", "-sarif and -json"},
		{[]string{"-json", "-sarif=x", "./..."}, "", "-sarif and -json"},
		{[]string{"-sarif", "-fix", "./..."}, "", "-fix"},
		{[]string{"-sarif=", "./..."}, "", "empty file name"},
	} {
		o, err := parseDriverFlags(tc.args)
		switch {
		case tc.err != "":
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%v: error %v, want %q", tc.args, err, tc.err)
			}
		case err != nil:
			t.Errorf("%v: %v", tc.args, err)
		case o.sarif != tc.want:
			t.Errorf("%v: sarif %q, want %q", tc.args, o.sarif, tc.want)
		}
	}
	// Checker mode: the flag is taken out of the multichecker's command line.
	dest, rest, err := sarifArgs([]string{"-checker", "--sarif=o.sarif", "-test=false", "./..."})
	if err != nil || dest != "o.sarif" || !slices.Equal(rest, []string{"-checker", "-test=false", "./..."}) {
		t.Errorf("sarifArgs: %q %q %v", dest, rest, err)
	}
	if !hasSARIF([]string{"-checker", "-sarif", "p"}) || hasSARIF([]string{"-checker", "p"}) {
		t.Error("hasSARIF")
	}
}

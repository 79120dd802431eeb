package main

import (
	"strings"
	"testing"
)

// The unified diff -fix -diff prints: hunks with three lines of context,
// merged when six or fewer kept lines separate them, each starting where
// it starts in the old file and in the new one, the latter counted after
// the lines earlier hunks removed and added.
func TestUnifiedDiff(t *testing.T) {
	numbered := func(from, to int, except map[int]string) string {
		var b strings.Builder
		for i := from; i <= to; i++ {
			if s, ok := except[i]; ok {
				b.WriteString(s)
				continue
			}
			b.WriteString("line ")
			b.WriteString(strings.Repeat("x", i%7))
			b.WriteString("\n")
		}
		return b.String()
	}
	before := numbered(1, 40, map[int]string{5: "five\n", 6: "six\n", 30: "thirty\n"})
	// Two lines gone near the top, one added lower down, one changed at
	// the bottom (further than six kept lines from the others).
	after := numbered(1, 40, map[int]string{5: "", 6: "", 20: "line xxxxxx\nadded\n", 30: "THIRTY\n"})
	want := `--- f.go (old)
+++ f.go (new)
@@ -2,8 +2,6 @@
 line xx
 line xxx
 line xxxx
-five
-six
 line 
 line x
 line xx
@@ -18,6 +16,7 @@
 line xxxx
 line xxxxx
 line xxxxxx
+added
 line 
 line x
 line xx
@@ -27,7 +26,7 @@
 line xxxxxx
 line 
 line x
-thirty
+THIRTY
 line xxx
 line xxxx
 line xxxxx
`
	if got := unifiedDiff("f.go", []byte(before), []byte(after)); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if got := unifiedDiff("f.go", []byte(before), []byte(before)); got != "" {
		t.Errorf("no change, got\n%s", got)
	}
	// A last line without a newline, and an empty file filled.
	if got, want := unifiedDiff("g.go", []byte("a\nb"), []byte("a\nc")), "--- g.go (old)\n+++ g.go (new)\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n"; got != want {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
	if got, want := unifiedDiff("h.go", nil, []byte("package h\n")), "--- h.go (old)\n+++ h.go (new)\n@@ -0,0 +1 @@\n+package h\n"; got != want {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
}

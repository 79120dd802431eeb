package main

import (
	"fmt"
	"strings"
)

// -fix -diff from an in-process report prints what -fix would write as
// go vet -fix -diff prints it: for each file, in name order, a unified
// diff labelled "NAME (old)" and "NAME (new)" with three lines of context,
// hunks closer than twice that merged.

const diffContext = 3

// maxDiffEdits bounds the line diff's work: past that many inserted and
// deleted lines, the changed middle of the file is shown replaced whole.
const maxDiffEdits = 4000

type lineOp struct {
	kind byte // ' ' kept, '-' deleted, '+' inserted
	text string
}

// unifiedDiff returns the unified diff turning before into after, "" when
// they are the same.
func unifiedDiff(name string, before, after []byte) string {
	ops := diffLines(splitLines(string(before)), splitLines(string(after)))
	var b strings.Builder
	// from and to count the lines of before and after up to ops[i].
	from, to := make([]int, len(ops)+1), make([]int, len(ops)+1)
	for i, op := range ops {
		from[i+1], to[i+1] = from[i], to[i]
		if op.kind != '+' {
			from[i+1]++
		}
		if op.kind != '-' {
			to[i+1]++
		}
	}
	for i := 0; i < len(ops); {
		if ops[i].kind == ' ' {
			i++
			continue
		}
		// A hunk: the changes from i on, until a run of kept lines long
		// enough to separate two hunks, or the end.
		end := i
		for j := i; j < len(ops); j++ {
			if ops[j].kind != ' ' {
				end = j + 1
			} else if j-end >= 2*diffContext {
				break
			}
		}
		start := max(0, i-diffContext)
		stop := min(len(ops), end+diffContext)
		if b.Len() == 0 {
			fmt.Fprintf(&b, "--- %s (old)\n+++ %s (new)\n", name, name)
		}
		fmt.Fprintf(&b, "@@ %s %s @@\n", hunkRange('-', from[start], from[stop]-from[start]), hunkRange('+', to[start], to[stop]-to[start]))
		for _, op := range ops[start:stop] {
			b.WriteByte(op.kind)
			b.WriteString(op.text)
			if !strings.HasSuffix(op.text, "\n") {
				b.WriteString("\n\\ No newline at end of file\n")
			}
		}
		i = stop
	}
	return b.String()
}

// hunkRange says where a hunk starts (after line skipped) and how many
// lines it covers, as go vet's diffs say it: the count only when more
// than one, and an empty file's side as 0,0.
func hunkRange(sign byte, skipped, count int) string {
	switch {
	case count > 1:
		return fmt.Sprintf("%c%d,%d", sign, skipped+1, count)
	case count == 0 && skipped == 0:
		return fmt.Sprintf("%c0,0", sign)
	}
	return fmt.Sprintf("%c%d", sign, skipped+1)
}

// splitLines splits s after each newline; a last line without one is
// kept as it is.
func splitLines(s string) []string {
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// diffLines returns a shortest edit script from a to b (Myers' greedy
// algorithm) as kept, deleted and inserted lines, deletions of a change
// before its insertions.
func diffLines(a, b []string) []lineOp {
	var ops []lineOp
	prefix := 0
	for prefix < len(a) && prefix < len(b) && a[prefix] == b[prefix] {
		ops = append(ops, lineOp{' ', a[prefix]})
		prefix++
	}
	suffix := 0
	for suffix < len(a)-prefix && suffix < len(b)-prefix && a[len(a)-1-suffix] == b[len(b)-1-suffix] {
		suffix++
	}
	ops = append(ops, middleOps(a[prefix:len(a)-suffix], b[prefix:len(b)-suffix])...)
	for _, line := range a[len(a)-suffix:] {
		ops = append(ops, lineOp{' ', line})
	}
	return ops
}

// middleOps is diffLines for what lies between the common prefix and
// suffix.
func middleOps(a, b []string) []lineOp {
	n, m := len(a), len(b)
	replaced := func() []lineOp {
		var ops []lineOp
		for _, line := range a {
			ops = append(ops, lineOp{'-', line})
		}
		for _, line := range b {
			ops = append(ops, lineOp{'+', line})
		}
		return ops
	}
	if n == 0 || m == 0 {
		return replaced()
	}
	// furthest[off+k]: how far along a the furthest path on diagonal k
	// (x-y) reaches with the edits counted so far; trace keeps it before
	// each round, to walk the path back.
	off := n + m + 1
	furthest := make([]int, 2*off+1)
	var trace [][]int
	for d := 0; d <= min(n+m, maxDiffEdits); d++ {
		trace = append(trace, append([]int(nil), furthest...))
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || k != d && furthest[off+k-1] < furthest[off+k+1] {
				x = furthest[off+k+1] // down: insert b[y-1]
			} else {
				x = furthest[off+k-1] + 1 // right: delete a[x-1]
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x++
				y++
			}
			furthest[off+k] = x
			if x >= n && y >= m {
				return backtrack(a, b, trace, off, n, m)
			}
		}
	}
	return replaced()
}

// backtrack walks the shortest path found back from (n, m) to the start.
func backtrack(a, b []string, trace [][]int, off, x, y int) []lineOp {
	var rev []lineOp
	for d := len(trace) - 1; d > 0; d-- {
		v := trace[d]
		k := x - y
		prevK := k - 1
		if k == -d || k != d && v[off+k-1] < v[off+k+1] {
			prevK = k + 1
		}
		prevX := v[off+prevK]
		prevY := prevX - prevK
		for x > prevX && y > prevY {
			x--
			y--
			rev = append(rev, lineOp{' ', a[x]})
		}
		if prevK == k+1 {
			rev = append(rev, lineOp{'+', b[prevY]})
		} else {
			rev = append(rev, lineOp{'-', a[prevX]})
		}
		x, y = prevX, prevY
	}
	for x > 0 && y > 0 {
		x--
		y--
		rev = append(rev, lineOp{' ', a[x]})
	}
	ops := make([]lineOp, len(rev))
	for i, op := range rev {
		ops[len(rev)-1-i] = op
	}
	return ops
}

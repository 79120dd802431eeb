#!/usr/bin/env bash
# Builds golangci-lint v2 with the lockgap plugin linked in (this module) and
# runs it on testdata/fixture:
#   - exactly the findings marked "// finding: PASS" in the fixture, none on
#     the lines silenced by //nolint:lockgap or //lockgap:ignore (which are
#     findings once the directives are taken out);
#   - --fix on a copy: the fixable files become their .go.golden, the copy
#     still builds, is gofmt-clean, and a second run finds only the findings
#     without a fix;
#   - settings: an unknown key fails the run with lockgap's message, and
#     staleguard: false drops staleguard's finding.
# Usage: integration/golangci/run.sh [BINARY]  (BINARY: where to build it;
# by default a temporary file). Called from .ci/run.
set -euo pipefail
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bin=${1:-$tmp/golangci-lint-lockgap}
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac

# golangci-lint's result cache: fresh, shared by the runs below.
export GOLANGCI_LINT_CACHE=$tmp/golangci-lint-cache

fail() { echo "FAIL: $*"; exit 1; }

echo "building $bin"
go build -o "$bin" .
"$bin" version
"$bin" version | grep -q -- '-custom-lockgap-' || fail "version does not name lockgap"

# copy NAME: a copy of the fixture in $tmp/NAME, printed.
copy() {
	rm -rf "${tmp:?}/$1"
	cp -r testdata/fixture "$tmp/$1"
	echo "$tmp/$1"
}

# lint DIR [ARGS...]: runs the binary in DIR; output in $tmp/out, exit
# status in $rc, issues as sorted "file:line pass" lines in $tmp/issues.
lint() {
	local dir=$1
	shift
	set +e
	(cd "$dir" && "$bin" run --output.text.print-issued-lines=false \
		--output.text.colors=false --show-stats=false "$@" ./...) >"$tmp/out" 2>&1
	rc=$?
	set -e
	sed -nE 's/^([^ :]+\.go):([0-9]+):[0-9]+: ([a-z]+): .*\(lockgap\)$/\1:\2 \3/p' "$tmp/out" | sort >"$tmp/issues"
}

# expected DIR [FILTER]: the "// finding: PASS" markers in DIR's Go files,
# as "file:line pass" lines, those matching the grep -v FILTER left out.
expected() {
	(cd "$1" && grep -nE '// finding: [a-z]+' -- *.go) |
		{ if [ -n "${2:-}" ]; then grep -v -- "$2" || true; else cat; fi; } |
		sed -E 's/^([^:]+):([0-9]+):.*\/\/ finding: ([a-z]+).*/\1:\2 \3/' | sort
}

# check NAME WANT_FILE: $tmp/issues must be exactly WANT_FILE and the run
# must have failed with status 1 (issues found).
check() {
	if ! diff -u "$2" "$tmp/issues"; then
		cat "$tmp/out"
		fail "$1: issues differ from what the fixture marks (- want, + got)"
	fi
	[ "$rc" -eq 1 ] || { cat "$tmp/out"; fail "$1: exit status $rc, want 1"; }
	echo "ok: $1: $(wc -l <"$tmp/issues") issues, as marked"
}

fixture=$(pwd)/testdata/fixture

echo "== golangci-lint run in testdata/fixture"
lint "$fixture"
cat "$tmp/out"
expected "$fixture" >"$tmp/want"
[ "$(wc -l <"$tmp/want")" -eq 4 ] || fail "the fixture should mark 4 findings"
check "run" "$tmp/want"
if grep -E '^silenced\.go:' "$tmp/out"; then
	fail "a finding silenced by //nolint:lockgap or //lockgap:ignore was reported"
fi
[ "$(grep -cE 'nolint:lockgap|lockgap:ignore rlockgap' "$fixture/silenced.go")" -eq 2 ] ||
	fail "silenced.go should hold one //nolint:lockgap and one //lockgap:ignore"
before=$(wc -l <"$tmp/issues")

echo "== the silenced shapes are findings without their directives"
dir=$(copy unsilenced)
sed -i -e 's|//nolint:lockgap //|//|' -e 's|//lockgap:ignore rlockgap|// was ignored:|' "$dir/silenced.go"
grep -qE '//nolint|//lockgap:ignore' "$dir/silenced.go" && fail "directives left in the copy"
lint "$dir"
{
	expected "$fixture"
	grep -n 'n\.mu\.Lock()' "$dir/silenced.go" | sed -E 's/^([0-9]+):.*/silenced.go:\1 rlockgap/'
} | sort >"$tmp/want"
[ "$(grep -c '^silenced' "$tmp/want")" -eq 2 ] || fail "silenced.go should have two Lock calls"
check "without the directives" "$tmp/want"

echo "== golangci-lint run --fix on a copy"
dir=$(copy fix)
lint "$dir" --fix
cat "$tmp/out"
for f in "$dir"/*.go; do
	name=$(basename "$f")
	if [ -e "$fixture/$name.golden" ]; then
		diff -u "$fixture/$name.golden" "$f" || fail "--fix: $name is not $name.golden (- want, + got)"
		cmp -s "$fixture/$name" "$f" && fail "--fix: $name unchanged"
	else
		cmp "$fixture/$name" "$f" || fail "--fix changed $name, which has no .golden"
	fi
done
echo "ok: --fix: $(ls "$fixture"/*.go.golden | wc -l) files fixed as in their .go.golden, the rest unchanged"
[ -z "$(cd "$dir" && gofmt -l .)" ] || fail "--fix left unformatted files"
(cd "$dir" && go build ./... && go vet ./...) || fail "the fixed copy does not build or vet"
echo "ok: the fixed copy builds, vets and is gofmt-clean"
# The --fix run reported what it could not fix, at its place before the
# fixes; a second run reports the same findings where they are now.
expected "$fixture" "with a fix" >"$tmp/want"
grep -q . "$tmp/want" || fail "the fixture should mark a finding without a fix"
check "run --fix (unfixed findings)" "$tmp/want"
expected "$dir" "with a fix" >"$tmp/want"
lint "$dir"
check "run after --fix" "$tmp/want"
after=$(wc -l <"$tmp/issues")
[ "$after" -lt "$before" ] || fail "a run after --fix found $after issues, not fewer than $before"

echo "== settings: an unknown key"
dir=$(copy unknown)
sed -i 's/^\(\s*\)staleguard: true$/\1stalegaurd: false/' "$dir/.golangci.yml"
grep -q 'stalegaurd: false' "$dir/.golangci.yml" || fail "could not misspell the setting"
lint "$dir"
cat "$tmp/out"
[ "$rc" -ne 0 ] && [ "$rc" -ne 1 ] || fail "unknown key: exit status $rc, want an error status"
grep -q 'lockgap settings: unknown key "stalegaurd"' "$tmp/out" || fail "unknown key: no lockgap error"
echo "ok: an unknown key fails the run (status $rc) with lockgap's message"

echo "== settings: staleguard: false"
dir=$(copy nostaleguard)
sed -i 's/^\(\s*\)staleguard: true$/\1staleguard: false/' "$dir/.golangci.yml"
grep -q 'staleguard: false' "$dir/.golangci.yml" || fail "could not disable staleguard"
lint "$dir"
expected "$dir" "finding: staleguard" >"$tmp/want"
check "staleguard: false" "$tmp/want"
grep -q ' staleguard$' "$tmp/issues" && fail "staleguard: false still reports staleguard"

echo "golangci-lint integration: ok"

#!/usr/bin/env bash
# corpus/fixcheck.sh [MODULE@VERSION...]
#
# Applies lockgap's suggested fixes to a scratch copy of each pinned module
# that has findings (findings.tsv, or the modules given) and checks that the
# packages the fixes touched still build and vet (tests included) as they
# did before. Prints, per module, how many findings carry
# a fix and whether the fixed tree builds; exit 1 if any does not.
# CORPUS_SCOPE=held analyses and fixes only the folders holding the
# module's findings (quicker on large modules).
set -euo pipefail
export GOWORK=off
here=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$here")
fetch=${FETCH_MODULE:-$repo/../shared/tools/fetch-module}
mods=("$@")
if [ ${#mods[@]} -eq 0 ]; then
	mapfile -t mods < <(grep -v '^#' "$here/findings.tsv" | cut -f1 | sort -u | grep -v '^std@')
fi
work=$(mktemp -d)
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
go build -o "$work/lockgap" "$repo/cmd/lockgap"
status=0
for spec in "${mods[@]}"; do
	dir=$("$fetch" "$spec" | tail -1)
	prepare=$here/prepare/$(echo "${spec%@*}" | tr / _).sh
	copy=$work/tree
	chmod -R u+w "$copy" 2>/dev/null || true
	rm -rf "$copy"
	cp -a "$dir" "$copy"
	chmod -R u+w "$copy"
	cd "$copy"
	{ [ ! -f "$prepare" ] || . "$prepare"; } >/dev/null 2>&1
	targets=(./...)
	if [ "${CORPUS_SCOPE:-modules}" = held ]; then
		# Only the folders holding the module's findings (as check.sh).
		mapfile -t targets < <(awk -F'\t' -v m="${spec%@*}" '$1 !~ /^#/ { split($1, a, "@"); if (a[1] == m) { d = $2; sub("/[^/]*$", "", d); if (d == $2) d = "."; print "./" d } }' "$here/findings.tsv" | sort -u)
		[ ${#targets[@]} -gt 0 ] || targets=(./...)
	fi
	"$work/lockgap" -json "${targets[@]}" >"$work/out.json" 2>/dev/null || true
	fixed=$(python3 - "$work/out.json" <<-'EOF'
		import json, sys
		dirs = set()
		n = f = 0
		for pkg, byPass in json.load(open(sys.argv[1])).items():
		    for diags in byPass.values():
		        if not isinstance(diags, list):
		            continue
		        for d in diags:
		            n += 1
		            if d.get("suggested_fixes"):
		                f += 1
		                dirs.add(d["posn"].rsplit("/", 1)[0])
		print(n, f, " ".join(sorted(dirs)))
	EOF
	)
	read -r total withfix pkgdirs <<<"$fixed"
	if [ "$withfix" = 0 ]; then
		echo "$spec: $total findings, none with a fix"
		cd "$repo"
		continue
	fi
	pkgs=()
	for d in $pkgdirs; do pkgs+=("./${d#"$copy"/}"); done
	# Some packages do not build or vet cleanly to begin with (cgo
	# libraries absent, generated files missing); only a change counts.
	# go vet type-checks the packages and their tests.
	check() {
		if ! go build "${pkgs[@]}" >"$work/build.txt" 2>&1; then echo 2
		elif ! go vet "${pkgs[@]}" >>"$work/build.txt" 2>&1; then echo 1
		else echo 0; fi
	}
	before=$(check)
	"$work/lockgap" -fix "${targets[@]}" >/dev/null 2>&1 || true
	changed=$(diff -rq "$dir" . 2>/dev/null | grep -c '^Files' || true)
	after=$(check)
	if [ "$after" -le "$before" ]; then
		echo "$spec: $total findings, $withfix with a fix, $changed files changed: builds, vet as before"
	else
		echo "$spec: $total findings, $withfix with a fix, $changed files changed: BROKEN"
		head -20 "$work/build.txt"
		diff -ru "$dir" . | head -80 || true
		status=1
	fi
	cd "$repo"
done
exit $status

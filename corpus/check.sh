#!/usr/bin/env bash
# corpus/check.sh [-update | -status] [MODULE@VERSION...]
#
# Runs lockgap over the pinned real-world modules (modules.txt, or those
# given) and compares what it reports with findings.tsv, the reviewed list:
# module@version, file, line, pass, message, verdict, reason. Prints the
# findings that appeared (+) and those that disappeared (-), and those
# reported at the same place by the same pass in other words (~, a
# message reworded: the verdict is kept); a change in
# precision shows up here in review. With -update, rewrites findings.tsv
# keeping the verdicts of findings that are still reported (new ones get
# verdict "?" to be reviewed). Exit 1 if anything differs (or panicked).
# A module that needs setting up first (a zip without go.mod, cgo headers)
# has corpus/prepare/<module path, / as _>.sh, sourced in its folder.
# CORPUS_STATE=DIR keeps each module's findings in DIR as it finishes, so
# an interrupted run given the same DIR again resumes where it stopped.
# -status (with CORPUS_STATE) runs nothing: it compares what the modules
# done so far in DIR reported, while the run goes on in another shell.
# CORPUS_SCOPE=held runs only the packages that hold findings in
# findings.tsv: a quick check of a change that should only silence
# findings (what is gone or reworded). A package analysed without the
# rest of its module can report more than in the full run, so its +
# lines are not news, and -update is refused in that scope.
# CORPUS_SCOPE=grep runs only the packages with a .go file matching the
# extended regular expression CORPUS_GREP (not testdata, vendor or std's
# cmd), and compares only the reviewed rows of those packages: a quick
# look for what a recall rule adds where its shape can occur (generic
# receivers: CORPUS_GREP='^func \([a-z]+ \*?[A-Za-z]+\['). Modules with
# no such package are skipped; -update is refused.
# The findings that carry a suggested fix are kept in the same form in
# fixes.tsv beside current.tsv (in CORPUS_STATE when set): classes.py
# -fixes FILE says how many true and false findings have one.
# LOCKGAP_CHECK_FLAGS adds flags to lockgap's command line (with
# LOCKGAP_INPROCESS=require, "-inprocess" compares the in-process run
# with the reviewed list).
set -euo pipefail
# Some module zips ship a go.work naming folders they do not contain.
export GOWORK=off
update=false status=false
case "${1:-}" in
-update) update=true; shift ;;
-status) status=true; shift ;;
esac
scope=${CORPUS_SCOPE:-modules}
case $scope in
modules | held) ;;
grep) [ -n "${CORPUS_GREP:-}" ] || { echo "CORPUS_SCOPE=grep needs CORPUS_GREP, a regular expression" >&2; exit 2; } ;;
*) echo "CORPUS_SCOPE is modules (the default), held or grep, not $scope" >&2; exit 2 ;;
esac
if $update && [ "$scope" != modules ]; then
	echo "-update needs whole modules (CORPUS_SCOPE=modules)" >&2
	exit 2
fi
if $status && [ -z "${CORPUS_STATE:-}" ]; then
	echo "-status compares what a run keeps in CORPUS_STATE: set it" >&2
	exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$here")
fetch=${FETCH_MODULE:-$repo/../shared/tools/fetch-module}
mods=("$@")
if $status; then
	mods=()
	[ ! -f "$CORPUS_STATE/done" ] || mapfile -t mods <"$CORPUS_STATE/done"
elif [ ${#mods[@]} -eq 0 ]; then
	mapfile -t mods < <(grep -v '^#' "$here/modules.txt" | grep .)
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Compiling a long list of modules fills the build cache faster than the
# go command trims it (about 10 GB an hour here), and the sources of every
# module's dependencies fill the module cache (60 GB over the whole list);
# a full disk makes modules fail as if lockgap had. Below
# CORPUS_MIN_FREE_GB free (15 by default), drop the module zips already
# extracted, then the build cache entries not used in the last 45 minutes,
# and if that is not enough the whole module cache (later modules download
# what they need again), unless CORPUS_KEEP_MODCACHE is set.
free_gb() {
	df -P -BG "$1" | awk 'NR == 2 { sub("G", "", $4); print $4 }'
}
make_room() {
	local cache modcache min=${CORPUS_MIN_FREE_GB:-15}
	cache=$(go env GOCACHE)
	modcache=$(go env GOMODCACHE)
	[ "$(free_gb "$modcache")" -lt "$min" ] || return 0
	# The zips of modules already extracted come back with every fetch
	# (13 GB over one package check): dropping them costs nothing.
	echo "only $(free_gb "$modcache") GB free: dropping module zips already extracted" >&2
	(cd "$modcache/cache/download" 2>/dev/null && find . -name '*.zip' | while read -r zip; do
		zip=${zip#./}
		mod=${zip%/@v/*}
		ver=$(basename "$zip" .zip)
		[ ! -d "$modcache/$mod@$ver" ] || rm -f "$zip"
	done) || true
	[ "$(free_gb "$cache")" -lt "$min" ] || return 0
	echo "only $(free_gb "$cache") GB free: trimming the build cache" >&2
	find "$cache" -type f -mmin +45 -delete 2>/dev/null || true
	[ "$(free_gb "$modcache")" -lt "$min" ] || return 0
	# Emptying the module cache frees its tens of GB only where they are
	# most of the disk's use; on a disk shared with others it would
	# throw away hours of downloads and free little: CORPUS_KEEP_MODCACHE=1.
	[ -z "${CORPUS_KEEP_MODCACHE:-}" ] || return 0
	echo "only $(free_gb "$modcache") GB free: emptying the module cache" >&2
	go clean -modcache || true
}
$status || go build -o "$work/lockgap" "$repo/cmd/lockgap"
# A run over the whole list takes hours; with CORPUS_STATE set to a
# folder, what each module reported is kept there as it finishes, and a
# second run with the same folder (after a crash, a full disk, a closed
# session) goes on where the first stopped.
state=${CORPUS_STATE:-$work}
mkdir -p "$state"
[ -n "${CORPUS_STATE:-}" ] || : >"$state/current.tsv" >"$state/fixes.tsv"
touch "$state/current.tsv" "$state/scanned"
ran=()
for spec in "${mods[@]}"; do
	if grep -qxF "$spec" "$state/done" 2>/dev/null; then
		$status || echo "== $spec: already run (in $state), kept" >&2
		ran+=("$spec")
		continue
	fi
	make_room
	if [ "$spec" = std ]; then
		dir=$(go env GOROOT)/src; pkgs=(std); label="std@$(go env GOVERSION)"
	else
		if ! dir=$("$fetch" "$spec" | tail -1) || [ -z "$dir" ]; then
			echo "could not fetch $spec (not served, or it needs a newer Go): skipped, its rows kept" >&2
			continue
		fi
		pkgs=(./...); label=$spec
	fi
	if [ "$scope" = held ]; then
		# The folders of the findings held for this module (std's rows
		# name files under GOROOT/src, the others under the module).
		mapfile -t pkgs < <(awk -F'\t' -v m="${label%@*}" '$1 !~ /^#/ { split($1, a, "@"); if (a[1] == m) { d = $2; sub("/[^/]*$", "", d); if (d == $2) d = "."; print "./" d } }' "$here/findings.tsv" | sort -u)
		if [ ${#pkgs[@]} -eq 0 ]; then
			echo "== $label: no findings held, skipped" >&2
			continue
		fi
	elif [ "$scope" = grep ]; then
		mapfile -t pkgs < <(cd "$dir" && grep -rlE --include='*.go' -- "$CORPUS_GREP" . 2>/dev/null |
			grep -vE '(^|/)(testdata|vendor)/|^\./cmd/|/[._]' | sed 's|/[^/]*$||' | sort -u)
		if [ ${#pkgs[@]} -eq 0 ]; then
			echo "$spec" >>"$state/done"
			echo "== $label: no package matches, skipped" >&2
			continue
		fi
		printf "$label\t%s\n" "${pkgs[@]}" >>"$state/scanned"
	fi
	echo "== $label" >&2
	ran+=("$spec")
	prepare=$here/prepare/$(echo "${spec%@*}" | tr / _).sh
	run_lockgap() {
		(cd "$dir" && { [ ! -f "$prepare" ] || . "$prepare"; } && "$work/lockgap" ${LOCKGAP_CHECK_FLAGS:-} -json "${pkgs[@]}" >"$work/out.json" 2>"$work/err.txt") || true
	}
	run_lockgap
	# An entry of the build cache trimmed (above, or by the go command)
	# while the run read it fails its packages as if they did not build,
	# and their findings would show as gone: run the module once more.
	if grep -q "could not import .*$(go env GOCACHE).*no such file or directory" "$work/err.txt"; then
		echo "build cache entries vanished under the run of $label: running it again" >&2
		run_lockgap
	fi
	# Packages lockgap could not load (a module's own build problems, or
	# lockgap's: a package that builds but fails here is a bug to chase).
	# (The vet tool prints them as "lockgap: file.go:line:col: ...".)
	loaderr='^(lockgap: )?[^ ]*\.go:[0-9]+:[0-9]+: '
	if grep -Eq "$loaderr" "$work/err.txt"; then
		echo "could not analyse every package of $label ($(grep -Ec "$loaderr" "$work/err.txt") errors), first:" >&2
		grep -Em 2 "$loaderr" "$work/err.txt" >&2
	fi
	if grep -q "internal error\|panic:" "$work/out.json" "$work/err.txt"; then
		echo "PANIC or internal error in $label:" >&2
		grep -h "internal error\|panic:" "$work/out.json" "$work/err.txt" | head >&2
		echo panic >"$work/panicked"
	fi
	python3 - "$label" "$dir" "$work/out.json" "$work/fixes.tsv" >"$work/module.tsv" <<'PY'
import json, os, sys
label, root, path, fixes_path = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
try:
    tree = json.load(open(path))
except ValueError:
    tree = {}
rows, fixed = set(), set()
for pkg, by in tree.items():
    for pas, diags in by.items():
        for d in diags:
            parts = d["posn"].rsplit(":", 2)
            if len(parts) < 3:  # no position: a bug of lockgap's, kept visible
                parts = [d["posn"], "0"]
            file, line = parts[:2]
            row = (label, os.path.relpath(file, root), int(line), pas, d["message"].replace("\t", " "))
            rows.add(row)
            if d.get("suggested_fixes"):
                fixed.add(row)
for r in sorted(rows):
    print("\t".join(str(x) for x in r))
with open(fixes_path, "w") as f:
    for r in sorted(fixed):
        f.write("\t".join(str(x) for x in r) + "\n")
PY
	cat "$work/module.tsv" >>"$state/current.tsv"
	cat "$work/fixes.tsv" >>"$state/fixes.tsv"
	[ ! -f "$work/panicked" ] || cp "$work/panicked" "$state/panicked"
	echo "$spec" >>"$state/done"
done
python3 - "$here/findings.tsv" "$state/current.tsv" "$update" "${ran[*]:-}" "$scope" "$state/scanned" <<'PY'
import os, sys
golden_path, current_path, update, mods = sys.argv[1], sys.argv[2], sys.argv[3] == "true", sys.argv[4].split()
by_grep, scanned_path = sys.argv[5] == "grep", sys.argv[6]
def key(cols): return tuple(cols[:5])
golden = {}
try:
    for line in open(golden_path):
        if line.startswith("#") or not line.strip():
            continue
        cols = line.rstrip("\n").split("\t")
        golden[key(cols)] = cols
except FileNotFoundError:
    pass
current = [tuple(l.rstrip("\n").split("\t")) for l in open(current_path) if l.strip()]
ran = {m.split("@")[0] for m in mods}
scope = {k: v for k, v in golden.items() if k[0].split("@")[0] in ran}
if by_grep:
    # Only the packages that matched were run: the other rows of their
    # modules are not gone.
    scanned = {tuple(l.rstrip("\n").split("\t")) for l in open(scanned_path) if l.strip()}
    def folder(k): return "./" + (os.path.dirname(k[1]) or ".")
    scope = {k: v for k, v in scope.items() if (k[0], folder(k)) in scanned}
cur = {key(c): c for c in current}
added = [c for k, c in cur.items() if k not in golden]
removed = [v for k, v in scope.items() if k not in cur]
# A finding reported at the same place by the same pass, in other words
# (the message reworded), is the same finding: it keeps its verdict.
def place(cols): return tuple(cols[:4])
gone_at = {}
for v in removed:
    gone_at.setdefault(place(v), []).append(v)
added_at = {}
for c in added:
    added_at.setdefault(place(c), []).append(c)
reworded = {}
for at, cs in added_at.items():
    if len(cs) == 1 and len(gone_at.get(at, [])) == 1:
        old = gone_at[at][0]
        reworded[key(cs[0])] = list(cs[0][:5]) + list(old[5:])
added = [c for c in added if key(c) not in reworded]
removed = [v for v in removed if not any(place(v) == place(r) for r in reworded.values())]
for k, r in reworded.items():
    print("~ " + "\t".join(r[:5]) + "\t(reworded; was " + (r[5] if len(r) > 5 else "?") + ", kept)")
for c in added:
    print("+ " + "\t".join(c[:5]))
for v in removed:
    print("- " + "\t".join(v[:5]) + "\t(was " + (v[5] if len(v) > 5 else "?") + ")")
golden.update(reworded)
verdicts = [golden.get(k, list(c) + ["?", ""])[5] for k, c in cur.items()]
true, false = verdicts.count("true"), verdicts.count("false")
print(f"{len(cur)} findings: {true} true, {false} false, {len(cur) - true - false} unreviewed"
      + (f"; precision {true / (true + false):.0%}" if true + false else ""))
if update:
    with open(golden_path, "w") as f:
        f.write("# module@version\tfile\tline\tpass\tmessage\tverdict\treason\n")
        keep = {k: v for k, v in golden.items() if k not in scope or k in cur}
        for k, c in cur.items():
            keep[k] = golden.get(k, list(c) + ["?", ""])
        for k in sorted(keep):
            f.write("\t".join(keep[k]) + "\n")
sys.exit(1 if added or removed or reworded else 0)
PY
[ ! -f "$state/panicked" ]

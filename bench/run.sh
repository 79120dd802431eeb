#!/usr/bin/env bash
# bench/run.sh [-n ROUNDS] MODULE@VERSION...
#
# Times lockgap (in-process, its default, and through go vet:
# lockgap-vet) against go vet, staticcheck and an SSA floor (a vet tool
# that only loads, type-checks and builds SSA) on the same packages, in
# one run, interleaved and repeated; prints medians of wall time and peak
# RSS, cold and warm, and the ratios the project tracks.
#
#   cold: dependencies compiled, no analysis cache (new cache keys for the
#         vet tools and lockgap's own, a fresh STATICCHECK_CACHE);
#   warm: the same command again, nothing changed.
#
# Modules are fetched with ../shared/tools/fetch-module (outside the
# repository). "std" measures the standard library from GOROOT.
set -euo pipefail
rounds=3
if [ "${1:-}" = "-n" ]; then rounds=$2; shift 2; fi
[ $# -ge 1 ] || { echo "usage: bench/run.sh [-n ROUNDS] MODULE@VERSION..." >&2; exit 2; }

repo=$(cd "$(dirname "$0")/.." && pwd)
fetch=${FETCH_MODULE:-$repo/../shared/tools/fetch-module}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/lockgap" "$repo/cmd/lockgap"
go build -o "$work/ssafloor" "$repo/bench/ssafloor"
staticcheck=$(command -v staticcheck || true)
if [ -z "$staticcheck" ]; then
	GOBIN="$work" go install honnef.co/go/tools/cmd/staticcheck@v0.8.2
	staticcheck=$work/staticcheck
fi

measure() { # measure NAME MODE -- command...: appends "name mode wall kb" to results
	local name=$1 mode=$2; shift 3
	/usr/bin/time -f "%e %M" -o "$work/t" "$@" >/dev/null 2>&1 || true
	echo "$name $mode $(cat "$work/t" | tail -1)" >>"$work/results"
}

for spec in "$@"; do
	if [ "$spec" = std ]; then
		dir=$(go env GOROOT)/src; pkgs=std
	else
		dir=$("$fetch" "$spec" | tail -1); pkgs=./...
	fi
	echo "== $spec ($dir)" >&2
	: >"$work/results"
	(
		cd "$dir"
		# Compile dependencies (and test dependencies) once; prime every
		# warm cache.
		go vet $pkgs >/dev/null 2>&1 || true
		"$work/lockgap" $pkgs >/dev/null 2>&1 || true
		"$work/lockgap" -inprocess=false $pkgs >/dev/null 2>&1 || true
		go vet -vettool="$work/ssafloor" $pkgs >/dev/null 2>&1 || true
		STATICCHECK_CACHE=$work/sc-warm "$staticcheck" $pkgs >/dev/null 2>&1 || true
		lines=$(go list -f '{{range .GoFiles}}{{$.Dir}}/{{.}} {{end}}{{range .TestGoFiles}}{{$.Dir}}/{{.}} {{end}}' $pkgs 2>/dev/null | xargs cat 2>/dev/null | wc -l)
		npkgs=$(go list $pkgs 2>/dev/null | wc -l)
		echo "$npkgs packages, $lines lines of Go (with tests)" >"$work/size"
		for r in $(seq "$rounds"); do
			n=$RANDOM$r
			measure lockgap cold -- env LOCKGAP_BENCH_NONCE=$n "$work/lockgap" $pkgs
			measure lockgap-vet cold -- env LOCKGAP_BENCH_NONCE=$n "$work/lockgap" -inprocess=false $pkgs
			measure govet cold -- go vet -printf.funcs=nonce$n $pkgs
			measure staticcheck cold -- env STATICCHECK_CACHE="$work/sc-$n" "$staticcheck" $pkgs
			measure floor cold -- go vet -vettool="$work/ssafloor" -nonce=$n $pkgs
			measure lockgap warm -- "$work/lockgap" $pkgs
			measure lockgap-vet warm -- "$work/lockgap" -inprocess=false $pkgs
			measure govet warm -- go vet $pkgs
			measure staticcheck warm -- env STATICCHECK_CACHE="$work/sc-warm" "$staticcheck" $pkgs
			measure floor warm -- go vet -vettool="$work/ssafloor" $pkgs
			rm -rf "$work/sc-$n"
		done
	)
	python3 - "$spec" "$work/results" "$work/size" <<'PY'
import statistics, sys
spec, path, size = sys.argv[1], sys.argv[2], open(sys.argv[3]).read().strip()
rows = {}
for line in open(path):
    name, mode, wall, kb = line.split()
    rows.setdefault((name, mode), []).append((float(wall), int(kb)))
med = {k: (statistics.median(w for w, _ in v), statistics.median(m for _, m in v)) for k, v in rows.items()}
print(f"\n{spec}: {size}")
print(f"{'tool':<12} {'cold wall':>10} {'cold MiB':>9} {'warm wall':>10} {'warm MiB':>9}")
for t in ("lockgap", "lockgap-vet", "floor", "govet", "staticcheck"):
    c, w = med.get((t, "cold"), (0, 0)), med.get((t, "warm"), (0, 0))
    print(f"{t:<12} {c[0]:>9.2f}s {c[1]/1024:>9.0f} {w[0]:>9.2f}s {w[1]/1024:>9.0f}")
r = lambda a, b: a / b if b else float("nan")
L, F, V, S = (med[(t, "cold")] for t in ("lockgap", "floor", "govet", "staticcheck"))
Lw, Vw = med[("lockgap", "warm")], med[("govet", "warm")]
print(f"ratios: cold lockgap/floor {r(L[0], F[0]):.2f} (target <= 1.5), cold lockgap/staticcheck {r(L[0], S[0]):.2f} (<= 1), "
      f"warm lockgap/go vet {r(Lw[0], Vw[0]):.2f} (<= 1.5), peak MiB lockgap/staticcheck {r(L[1], S[1]):.2f} (<= 2)")
PY
done

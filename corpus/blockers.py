#!/usr/bin/env python3
"""corpus/blockers.py [-o DETAILS] [REGEX]

For every false finding of findings.tsv (those whose module@version and
file match REGEX, if given), reruns lockgap with LOCKFLOW_DEBUG on the
finding's package and reads what stopped the engine from proving the
finding false: the first way into the gap's function it could not
follow (an exported function whose callers are in other packages, a
function value handed out, goroutines that are not one worker), or a
writer of the state not on the worker it found. Prints how many false
findings each blocker holds; with -o, writes the engine's lines for each
finding to DETAILS. The rules to write next are where the counts are.

Needs ../shared/tools/fetch-module (or FETCH_MODULE) and the modules'
dependencies; takes about an hour over the whole list.
"""
import collections
import os
import re
import subprocess
import sys
import tempfile

here = os.path.dirname(os.path.abspath(__file__))
repo = os.path.dirname(here)
fetch = os.environ.get("FETCH_MODULE", os.path.join(repo, "..", "shared", "tools", "fetch-module"))

args = sys.argv[1:]
details_path = None
if args[:1] == ["-o"]:
    details_path, args = args[1], args[2:]
pattern = re.compile(args[0]) if args else None

rows = []
for line in open(os.path.join(here, "findings.tsv")):
    if line.startswith("#") or not line.strip():
        continue
    cols = line.rstrip("\n").split("\t")
    if len(cols) < 7 or cols[5] != "false" or cols[0].startswith("std@"):
        continue
    if pattern and not pattern.search(cols[0] + " " + cols[1]):
        continue
    rows.append(cols)

work = tempfile.mkdtemp(prefix="blockers.")
lockgap = os.path.join(work, "lockgap")
subprocess.run(["go", "build", "-o", lockgap, "./cmd/lockgap"], cwd=repo, check=True)
env = dict(os.environ, LOCKFLOW_DEBUG="1", LOCKGAP_CACHE="off", GOWORK="off", GOFLAGS="-mod=mod")

dirs, outputs = {}, {}


def debug_output(mod, pkg):
    if mod not in dirs:
        p = subprocess.run([fetch, mod], capture_output=True, text=True)
        dirs[mod] = p.stdout.strip().split("\n")[-1]
    key = (mod, pkg)
    if key not in outputs:
        outputs.clear()  # one package at a time: the output is large
        try:
            p = subprocess.run([lockgap, "./" + pkg + "/"], cwd=dirs[mod], env=env, capture_output=True, text=True, timeout=1800)
            outputs[key] = (p.stdout + p.stderr).split("\n")
        except subprocess.TimeoutExpired:
            outputs[key] = []
    return outputs[key]


def blocker(lines, f, line):
    # The gap whose write is nearest the reported line, in the same file.
    best = None
    for l in lines:
        m = re.match(r"gap (\S+) kind=\d+ read=\S+ write=(\S+):(\d+):\d+", l)
        if m and m.group(2).endswith("/" + f):
            d = abs(int(m.group(3)) - line)
            if best is None or d < best[0]:
                best = (d, m.group(1))
    if best is None:
        return "no gap matched (a recursive RLock, or reported through another function)", []
    fn, seen, block, inside = best[1], [], [], False
    for l in lines:
        if l.startswith("context " + fn + " "):
            inside = True
        elif inside and not l.startswith("  "):
            inside = False
        if inside and l not in seen and not l.startswith(("  read ", "  write ")):
            seen.append(l)
    block = seen
    if any("not on the worker" in l for l in block):
        return "a worker is found, but another writer of the state is not on it", block
    unknown = [l for l in block if "not known" in l]
    if not unknown:
        return "other (every way in known; no rule settled it)", block
    m = re.search(r"calls of (\S+) not known \(escapes=(\w+) started=(\d+)", unknown[-1])
    if not m:
        return "other (every way in known; no rule settled it)", block
    name, escapes, started = m.group(1).split(".")[-1], m.group(2), m.group(3)
    if escapes == "true":
        return "reached through a function value handed out (a callback, a handler, a closure)", block
    if started != "0":
        return "started by go statements, but not one worker", block
    if re.match(r"[A-Z]", name.split("$")[0]):
        return "reached through an exported function: its callers are in other packages", block
    return "unexported, and no caller in the package (dead, or called only by tests)", block


counts = collections.Counter()
details = open(details_path, "w") if details_path else None
for cols in rows:
    mod, f, line = cols[0], cols[1], int(cols[2])
    lines = debug_output(mod, os.path.dirname(f) or ".")
    why, block = blocker(lines, f, line)
    counts[why] += 1
    if details:
        reason = cols[6]
        cls = reason[reason.find("[class:"):] if "[class:" in reason else ""
        print("####", mod, f, line, cls, file=details)
        print("  blocker:", why, file=details)
        for l in block:
            print(l[:300], file=details)
        details.flush()
for why, n in counts.most_common():
    print(f"{n:5d}  {why}")

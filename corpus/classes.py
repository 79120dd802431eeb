#!/usr/bin/env python3
"""classes.py: what the reviewed list (findings.tsv) says about precision.

Prints the precision over the list, per pass, and the false findings
grouped by the class their reason names ("[class: ...]"), each class
under the family of facts lockgap would need to drop it. A false finding
whose reason names no class is listed as unclassified: give it one.

With -fixes FILE (the fixes.tsv a check.sh run keeps beside current.tsv),
it also says how many of the true and of the false findings carry a
suggested fix, and lists the true findings without one by message shape.
"""
import argparse
import collections
import os
import re
import signal

here = os.path.dirname(os.path.abspath(__file__))

# Families, by a word of the class name (first match wins): what kind of
# fact a per-package analysis is missing for them.
FAMILIES = [
    ("documented contracts and dead code", ("documented", "unreachable")),
    ("which goroutine runs what", ("goroutine", "single writer", "single worker", "single consumer",
                                   "confined", "owns the object", "one goroutine", "predicates",
                                   "owned by one", "serialised by a per-object")),
    ("a lock or claim held by callers in another package", ("outer", "claim", "transfer manager")),
    ("set-up, construction and lifecycle order", ("constructor", "configuration-time", "lifecycle",
                                                  "construction", "published", "written once",
                                                  "teardown", "sequential refresh")),
    ("what the values mean (no-op or idempotent writes, re-checks)", ("idempotent", "removal by value",
                                                                     "do nothing", "re-checked",
                                                                     "merges versions", "snapshot",
                                                                     "fresh unique key", "retry", "never stored again")),
    ("tests", ("test",)),
]


def family(cls):
    for name, words in FAMILIES:
        if any(w in cls for w in words):
            return name
    return "other"


def shape(message):
    """The words of a message that say its kind, names dropped."""
    m = re.sub(r"\([\w./-]+\.go:\d+\)", "", message.split(" ", 1)[-1])
    m = re.sub(r"[\w.()\[\]*&]*[.(][\w.()\[\]*&]*", "X", m)
    return " ".join(m.split()[:9])


def fix_coverage(rows, path):
    fixed = set()
    for line in open(path):
        cols = line.rstrip("\n").split("\t")
        if len(cols) >= 5:
            fixed.add(tuple(cols[:5]))
    keys = {tuple(r[:5]): r for r in rows}
    for v in ("true", "false"):
        these = [k for k, r in keys.items() if r[5] == v]
        n = sum(k in fixed for k in these)
        print(f"{v} findings with a fix: {n} of {len(these)} ({100 * n / max(len(these), 1):.0f}%)")
    unknown = len(fixed - set(keys))
    if unknown:
        print(f"  ({unknown} fixed findings not in the list)")
    missing = collections.Counter(shape(r[4]) for k, r in keys.items() if r[5] == "true" and k not in fixed)
    print("true findings without a fix, by message shape:")
    for s, n in missing.most_common(15):
        print(f"  {n:4d} {s}")


def main():
    ap = argparse.ArgumentParser(description="precision and false classes of findings.tsv")
    ap.add_argument("-fixes", metavar="FILE", help="fixes.tsv of a check.sh run: fix coverage")
    args = ap.parse_args()
    rows = []
    for line in open(os.path.join(here, "findings.tsv")):
        if line.startswith("#") or not line.strip():
            continue
        cols = line.rstrip("\n").split("\t")
        if len(cols) == 7:
            rows.append(cols)
    verdicts = collections.Counter(r[5] for r in rows)
    t, f = verdicts["true"], verdicts["false"]
    print(f"{len(rows)} findings, {t} true, {f} false: {100 * t / max(t + f, 1):.1f}% true"
          + (f", {len(rows) - t - f} unreviewed" if len(rows) > t + f else ""))
    for p in sorted({r[3] for r in rows}):
        c = collections.Counter(r[5] for r in rows if r[3] == p)
        print(f"  {p}: {c['true']} true, {c['false']} false")
    byfamily = collections.defaultdict(collections.Counter)
    for r in rows:
        if r[5] != "false":
            continue
        m = re.search(r"\[class: ([^\]]*)\]", r[6])
        cls = m.group(1) if m else "unclassified"
        byfamily[family(cls) if m else "unclassified"][cls] += 1
    print("false findings by the fact they need:")
    for fam, classes in sorted(byfamily.items(), key=lambda kv: -sum(kv[1].values())):
        print(f"  {sum(classes.values()):3d} {fam}")
        for cls, n in classes.most_common():
            print(f"      {n:3d} {cls}")
    if args.fixes:
        fix_coverage(rows, args.fixes)


if __name__ == "__main__":
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # quiet under head
    main()

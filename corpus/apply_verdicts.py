#!/usr/bin/env python3
"""apply_verdicts.py VERDICTS.tsv: sets verdict and reason in findings.tsv.

VERDICTS.tsv rows: module-prefix, file, line, true|false, reason. A row
applies to every finding of a module whose module@version contains the
prefix, at that file and line.
"""
import os, sys

here = os.path.dirname(os.path.abspath(__file__))
golden = os.path.join(here, "findings.tsv")
verdicts = []
for line in open(sys.argv[1]):
    if line.strip() and not line.startswith("#"):
        mod, file, ln, verdict, reason = line.rstrip("\n").split("\t", 4)
        verdicts.append((mod, file, ln, verdict.lower(), reason))
out = []
for line in open(golden):
    cols = line.rstrip("\n").split("\t")
    if line.startswith("#") or len(cols) < 7:
        out.append(line.rstrip("\n"))
        continue
    for mod, file, ln, verdict, reason in verdicts:
        if mod in cols[0] and cols[1] == file and cols[2] == ln:
            cols[5], cols[6] = verdict, reason
    out.append("\t".join(cols))
open(golden, "w").write("\n".join(out) + "\n")

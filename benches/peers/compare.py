#!/usr/bin/env python3
"""usage: compare.py RESULTS.tsv [TOOL]

Per program, TOOL's native branch coverage (default cairn) against the best other tool's, in
percentage points; then the mean difference and how many programs TOOL leads, ties or trails.
A failed run counts as 0%."""
import csv
import sys

if len(sys.argv) < 2:
    sys.exit(__doc__)
tool = sys.argv[2] if len(sys.argv) > 2 else "cairn"
rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))


def pct(r):
    if r["status"] != "ok" or r["branches"] in ("?", "", "0"):
        return 0.0
    return 100.0 * int(r["branches_hit"]) / int(r["branches"])


progs = {}
for r in rows:
    progs.setdefault(r["program"], {})[r["tool"]] = r
print("| program | %s | best peer | difference (points) |" % tool)
print("|---|---|---|---|")
diffs = []
for p, by in progs.items():
    if tool not in by or len(by) < 2:
        continue
    mine = pct(by[tool])
    peer, best = max(((t, pct(r)) for t, r in by.items() if t != tool), key=lambda x: x[1])
    d = mine - best
    diffs.append(d)
    print("| %s | %.1f%% | %s %.1f%% | %+.1f |" % (p, mine, peer, best, d))
if diffs:
    lead = sum(d > 0.05 for d in diffs)
    tie = sum(abs(d) <= 0.05 for d in diffs)
    print("\n%s against the best peer on %d programs: mean %+.1f points; leads %d, ties %d, "
          "trails %d" % (tool, len(diffs), sum(diffs) / len(diffs), lead, tie, len(diffs) - lead - tie))

#!/usr/bin/env python3
"""Runs `cairn prove --goals error` on every SV-COMP task of one or more directories and
prints a table: per task the expected unreach-call verdict, what Cairn decided, and the time.

Usage: python3 scripts/sv_table.py [--cairn PATH] [--time 60] [--mc-only] DIR...

Each DIR holds task definitions (`*.yml`, SV-COMP format 2.0: `input_files`, the
`unreach-call.prp` property's `expected_verdict`, `options: data_model`) beside their sources.
Nothing is downloaded: copy the tasks there first. A task counts as proven when every error
call is proven unreachable; a `false` task proven is a soundness failure (exit status 1).
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time


def parse_task(path):
    text = open(path).read()
    m = re.search(r"input_files:\s*\[?\s*'?([^'\]\n]+)'?", text)
    if not m:
        return None
    source = m.group(1).strip()
    verdict = None
    for block in re.split(r"\n\s*-\s*property_file:", text):
        if "unreach-call.prp" in block.split("\n")[0]:
            v = re.search(r"expected_verdict:\s*(true|false)", block)
            verdict = v.group(1) if v else None
    if verdict is None:
        return None
    dm = re.search(r"data_model:\s*(ILP32|LP64)", text)
    return {
        "source": os.path.join(os.path.dirname(path), source),
        "verdict": verdict == "true",
        "data_model": (dm.group(1) if dm else "ILP32").lower(),
    }


def run(cairn, task, seconds, mc_only):
    with tempfile.TemporaryDirectory(prefix="cairn-sv-") as out:
        start = time.time()
        cmd = [cairn, "prove", task["source"], "--goals", "error", "--time", f"{seconds}s",
               "--data-model", task["data_model"], "--out", out] + (["--mc-only"] if mc_only else [])
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=seconds * 3 + 30)
        except subprocess.TimeoutExpired:
            return "timeout", time.time() - start, ""
        elapsed = time.time() - start
        try:
            s = json.load(open(os.path.join(out, "summary.json")))
        except (OSError, ValueError):
            return "error", elapsed, p.stderr.strip().splitlines()[-1:] or [""]
        g = s["goals"]
        mc = s.get("mc") or {}
        if s.get("proofs", {}).get("exhaustive"):
            how = "exhaustive"
        else:
            how = "invariant" if mc.get("proved_by_invariant") else "ARG"
        if g["total"] > 0 and g["unreachable"] == g["total"]:
            return f"proven ({how})", elapsed, ""
        if g["covered"] > 0:
            return "error reached", elapsed, ""
        return "unknown", elapsed, "; ".join(mc.get("notes", [])[:2])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cairn", default=os.path.join(os.path.dirname(__file__), "..", "target",
                                                    "release", "cairn"))
    ap.add_argument("--time", type=int, default=60)
    ap.add_argument("--mc-only", action="store_true",
                    help="the model checker alone (no exhaustive path exploration)")
    ap.add_argument("dirs", nargs="+")
    a = ap.parse_args()
    rows = []
    for d in a.dirs:
        for name in sorted(os.listdir(d)):
            if not name.endswith(".yml"):
                continue
            task = parse_task(os.path.join(d, name))
            if task is None or not os.path.exists(task["source"]):
                continue
            result, secs, note = run(a.cairn, task, a.time, a.mc_only)
            rows.append((os.path.basename(d.rstrip("/")), name[:-4], task["verdict"], result,
                         secs, note))
            print(f"{rows[-1][0]:<13} {rows[-1][1]:<48} {str(task['verdict']).lower():<6} "
                  f"{result:<20} {secs:6.1f}s {note}", flush=True)
    true_tasks = [r for r in rows if r[2]]
    proven = [r for r in true_tasks if r[3].startswith("proven")]
    false_tasks = [r for r in rows if not r[2]]
    wrong = [r for r in false_tasks if r[3].startswith("proven")]
    found = [r for r in false_tasks if r[3] == "error reached"]
    print()
    for d in sorted({r[0] for r in rows}):
        t = [r for r in true_tasks if r[0] == d]
        p = [r for r in t if r[3].startswith("proven")]
        print(f"{d:<13} true tasks proven: {len(p)}/{len(t)}")
    share = 100.0 * len(proven) / max(1, len(true_tasks))
    print(f"all           true tasks proven: {len(proven)}/{len(true_tasks)} ({share:.1f}%); "
          f"false tasks: {len(found)}/{len(false_tasks)} errors reached, "
          f"{len(wrong)} wrongly proven")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())

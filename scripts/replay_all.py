#!/usr/bin/env python3
"""Replays Cairn's tests of every team program natively and sums what replay checked.

    python3 scripts/replay_all.py [--time 10] [--jobs 2] [DIR_OR_FILE ...]

For each C program (default: every tests/programs/*/*.c) it runs `cairn gen` with a short
budget, then `cairn replay`, and prints one row per program and the totals: claims confirmed
per goal (branch outcomes, error calls), by line only, not checkable, mismatches, unconfirmed.
Programs `gen` refuses (syntax errors on purpose, options a program needs) are listed apart.
"""
import argparse, concurrent.futures, json, os, re, subprocess, sys, tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CAIRN = ROOT / "target/release/cairn"


def run(prog, budget, tmp):
    out = Path(tmp) / (prog.parent.name + "-" + prog.stem)
    g = subprocess.run([str(CAIRN), "gen", str(prog), "--out", str(out), "--time", f"{budget}s",
                        "--seed", "1"], capture_output=True, text=True)
    if not (out / "summary.json").exists():
        return prog, None, (g.stderr.strip().splitlines() or ["no output"])[-1]
    r = subprocess.run([str(CAIRN), "replay", str(prog), str(out)], capture_output=True, text=True)
    text = r.stdout + r.stderr
    row = {"mismatches": text.count("REPLAY MISMATCH"), "rc": r.returncode}
    m = re.search(r"confirmed natively per goal: (\d+) \(([^)]*)\); by line only: (\d+); not checkable: (\d+)", text)
    if m:
        row["per_goal"] = int(m.group(1))
        row["line"] = int(m.group(3))
        row["unchecked"] = int(m.group(4))
        for part in m.group(2).split(", "):
            n, _, kind = part.partition(" ")
            if n.isdigit():
                row[kind] = int(n)
    m = re.search(r"unconfirmed: (\d+)\)", text)
    row["unconfirmed"] = int(m.group(1)) if m else 0
    m = re.search(r"replayed (\d+) tests", text)
    row["tests"] = int(m.group(1)) if m else 0
    row["wrong_proofs"] = text.count("a wrong proof")
    if row["mismatches"] or "per_goal" not in row:
        row["detail"] = "\n".join(l for l in text.splitlines() if "MISMATCH" in l or "error" in l)[:2000]
    return prog, row, None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--time", type=int, default=10)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("paths", nargs="*")
    a = ap.parse_args()
    progs = []
    for p in a.paths or [str(ROOT / "tests/programs")]:
        p = Path(p)
        progs += sorted(p.rglob("*.c")) if p.is_dir() else [p]
    keys = ["tests", "per_goal", "branch outcomes", "error calls", "line", "unchecked",
            "mismatches", "unconfirmed", "wrong_proofs"]
    total = {k: 0 for k in keys}
    refused = []
    with tempfile.TemporaryDirectory() as tmp, \
            concurrent.futures.ThreadPoolExecutor(a.jobs) as ex:
        for prog, row, err in ex.map(lambda p: run(p, a.time, tmp), progs):
            name = f"{prog.parent.name}/{prog.name}"
            if row is None:
                refused.append((name, err))
                continue
            print(f"{name:40} " + " ".join(f"{k}={row.get(k, 0)}" for k in keys), flush=True)
            if row.get("detail"):
                print("    " + row["detail"].replace("\n", "\n    "))
            for k in keys:
                total[k] += row.get(k, 0)
    print(f"\n{len(progs) - len(refused)} programs replayed; totals: "
          + ", ".join(f"{k} {v}" for k, v in total.items()))
    for name, err in refused:
        print(f"not run: {name}: {err}")


if __name__ == "__main__":
    main()

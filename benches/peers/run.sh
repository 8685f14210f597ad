#!/bin/bash
# usage: benches/peers/run.sh [-t SECONDS] [-o OUTROOT] [LIST ...]
#
# Cairn against the tools users would pick instead, at the same budget, scored the same way:
# every tool's tests are replayed natively and scored by gcov branch coverage (the peer-
# comparison harness of ../shared/eval; EVAL_DIR to use another copy). LIST: measure.sh list
# files (default benches/peers/team.list; benches/peers/external.sh writes CREST's).
# Tools: TOOLS (default "cairn libfuzzer", plus klee when $KLEE names a KLEE binary, plus
# aflpp when afl-fuzz is on PATH). Prints the harness's table, then Cairn against the best
# peer per program and the mean difference (benches/peers/compare.py), then Cairn's proofs
# checked against every peer's tests (`cairn replay --tests-from`). Defaults: 30 s,
# OUTROOT target/peers. Programs run one at a time, tools one after the other.
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SECS=30; OUT=$ROOT/target/peers
while getopts "t:o:" o; do
  case $o in
    t) SECS=$OPTARG ;;
    o) OUT=$OPTARG ;;
    *) sed -n '2,2p' "$0"; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
LISTS=("$@"); [ ${#LISTS[@]} -gt 0 ] || LISTS=("$ROOT/benches/peers/team.list")
EVAL=${EVAL_DIR:-$ROOT/../shared/eval}
[ -x "$EVAL/measure.sh" ] || { echo "no peer-comparison harness at $EVAL (set EVAL_DIR)" >&2; exit 2; }
if [ -z "${TOOLS:-}" ]; then
  TOOLS="cairn libfuzzer"
  [ -n "${KLEE:-}" ] && TOOLS="$TOOLS klee"
  command -v afl-fuzz > /dev/null && TOOLS="$TOOLS aflpp"
fi
export EVAL_CC=${EVAL_CC:-$ROOT/benches/peers/cc.sh}
(cd "$ROOT" && cargo build --release --quiet)
export CAIRN=$ROOT/target/release/cairn
mkdir -p "$OUT"; OUT=$(realpath "$OUT")
# Repository-relative paths in the lists: measure.sh runs from the root.
cd "$ROOT"
for L in "${LISTS[@]}"; do
  # shellcheck disable=SC2086
  "$EVAL/measure.sh" "$L" "$SECS" "$OUT" $TOOLS > /dev/null
done
python3 "$EVAL/table.py" "$OUT/results.tsv" $TOOLS
echo
python3 "$ROOT/benches/peers/compare.py" "$OUT/results.tsv" cairn
# Cairn's proofs against every peer's tests (`cairn replay --tests-from`): a peer's test that
# natively takes a goal Cairn proved unreachable is a wrong proof.
echo
for D in "$OUT"/*/cairn/cairn-out; do
  [ -f "$D/goals.json" ] || continue
  P=$(dirname "$(dirname "$D")")
  for T in $TOOLS; do
    if [ "$T" != cairn ] && [ -d "$P/$T/tests" ]; then
      W=$("$CAIRN" replay "$D" --tests-from "$P/$T/tests" 2>&1 | grep -c "a wrong proof" || true)
      echo "Cairn's proofs against $T's tests on $(basename "$P"): $W wrong"
    fi
  done
done

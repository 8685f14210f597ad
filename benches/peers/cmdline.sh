#!/bin/bash
# usage: benches/peers/cmdline.sh [-t SECONDS] [-o OUTROOT] LIST
#
# Cairn against the fuzzers on programs with their own main that read argv, files and stdin
# (the Siemens programs), which the peer harness's common replay format cannot carry. LIST
# lines: "PATH.c MIN MAX LEN [FILES SIZE]", the input shape each tool gets: Cairn's
# --sym-args MIN MAX LEN [--sym-files FILES SIZE]; the fuzzers' driver (cmdline_driver.c) reads
# the same shape from their bytes, the rest of the input being stdin. Each tool's tests are
# replayed natively by its own harness (Cairn: the suite's replay/harness.c; fuzzers: the driver
# built as a replayer), compiled with gcc --coverage, and scored by gcov branch coverage of the
# program's source file, as benches/peers/run.sh scores. The fuzzers run through the peer
# harness's own runners (../shared/eval, EVAL_DIR), handed this driver.
# TOOLS: default "cairn libfuzzer", plus klee when $KLEE names a KLEE binary (built with its
# POSIX runtime and uclibc; run with --sym-args/--sym-files as Cairn and --sym-stdin KLEE_STDIN,
# default 64 bytes, and replayed by the klee-replay beside it), plus aflpp when afl-fuzz is on
# PATH. Writes
# OUTROOT/results.tsv (measure.sh's columns; re-running replaces only the rows it re-runs) and
# prints Cairn against the best peer (compare.py). Defaults: 30 s, OUTROOT target/peers-cmdline.
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SECS=30; OUT=$ROOT/target/peers-cmdline
while getopts "t:o:" o; do
  case $o in
    t) SECS=$OPTARG ;;
    o) OUT=$OPTARG ;;
    *) sed -n '2,2p' "$0"; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || { sed -n '2,2p' "$0"; exit 2; }
LIST=$(realpath "$1")
EVAL=${EVAL_DIR:-$ROOT/../shared/eval}
[ -x "$EVAL/run-libfuzzer.sh" ] || { echo "no peer-comparison harness at $EVAL (set EVAL_DIR)" >&2; exit 2; }
EVAL=$(realpath "$EVAL")
if [ -z "${TOOLS:-}" ]; then
  TOOLS="cairn libfuzzer"
  [ -n "${KLEE:-}" ] && TOOLS="$TOOLS klee"
  command -v afl-fuzz > /dev/null && TOOLS="$TOOLS aflpp"
fi
KLEE_CLANG=${KLEE_CLANG:-clang-16}
KLEE_REPLAY=${KLEE_REPLAY:-$(dirname "${KLEE:-klee}")/klee-replay}
(cd "$ROOT" && cargo build --release --quiet)
CAIRN=$ROOT/target/release/cairn
DRIVER=$ROOT/benches/peers/cmdline_driver.c
mkdir -p "$OUT"; OUT=$(realpath "$OUT")
TSV=$OUT/results.tsv
[ -f "$TSV" ] || printf 'program\ttool\tstatus\ttests\tbranches_hit\tbranches\tcoverage\tlines_hit\tlines\tnote\n' > "$TSV"
CFLAGS="-g -O0 -w -std=gnu99 -fno-common"

# score NAME TOOL RUNNER BIN DIR TESTS...: replay each test natively (2 s each, in a scratch
# directory, as `RUNNER BIN TEST`), then gcov of DIR/NAME.o's source.
score() {
  local name=$1 tool=$2 runner=$3 bin=$4 dir=$5; shift 5
  local scratch t n=0 g hit total lines lhit pct
  scratch=$(mktemp -d)
  for t in "$@"; do
    (cd "$scratch" && "$runner" "$bin" "$t") > /dev/null 2>&1 < /dev/null || true
    n=$((n + 1))
  done
  rm -rf "$scratch"
  g=$(cd "$dir" && gcov -b -n -o "$dir" "$name.o" 2> /dev/null | sed -n "/^File '.*$name.c'/,/^$/p")
  pct=$(echo "$g" | sed -n 's/^Taken at least once:\([0-9.]*\)% of \([0-9]*\)/\1 \2/p' | head -1)
  total=${pct#* }; hit=$(python3 -c "print(round(${pct% *} * $total / 100))")
  lines=$(echo "$g" | sed -n 's/^Lines executed:\([0-9.]*\)% of \([0-9]*\)/\1 \2/p' | head -1)
  lhit=$(python3 -c "print(round(${lines% *} * ${lines#* } / 100))")
  sed -i "/^$name\t$tool\t/d" "$TSV"
  printf '%s\t%s\tok\t%d\t%d\t%d\t%.1f%%\t%d\t%d\t\n' "$name" "$tool" "$n" "$hit" "$total" \
    "$(python3 -c "print(100 * $hit / $total)")" "$lhit" "${lines#* }" >> "$TSV"
  echo "$name / $tool: $n tests, branches $hit/$total"
}

cairn_replay_one() { CAIRN_TEST=$2 timeout -s TERM -k 1 2 "$1"; }
fuzz_replay_one() { timeout -s TERM -k 1 2 "$1" "$2"; }
klee_replay_one() { timeout -s TERM -k 1 2 "$KLEE_REPLAY" "$1" "$2"; }

while read -r SRC MIN MAX LEN FILES SIZE; do
  case "$SRC" in ''|\#*) continue ;; esac
  SRC=$(realpath "$SRC"); NAME=$(basename "$SRC" .c); FILES=${FILES:-0}; SIZE=${SIZE:-1}
  SHAPE="-DMIN_ARGS=$MIN -DMAX_ARGS=$MAX -DARG_LEN=$LEN -DFILES=$FILES -DFILE_SIZE=$SIZE"
  P=$OUT/$NAME
  for TOOL in $TOOLS; do
    D=$P/$TOOL; rm -rf "$D"; mkdir -p "$D/cov"
    if [ "$TOOL" = cairn ]; then
      SYM=()
      [ "$MAX" -gt 0 ] && SYM+=(--sym-args "$MIN" "$MAX" "$LEN")
      [ "$FILES" -gt 0 ] && SYM+=(--sym-files "$FILES" "$SIZE")
      "$CAIRN" gen "$SRC" "${SYM[@]}" --time "${SECS}s" --out "$D/suite" > "$D/gen.log" 2>&1 || true
      # The harness has the main when it builds argv or files (as `cairn replay` compiles).
      MAIN=; grep -q cairn_program_main "$D/suite/replay/harness.c" && MAIN=-Dmain=cairn_program_main
      # shellcheck disable=SC2086
      gcc $CFLAGS --coverage $MAIN -c "$SRC" -o "$D/cov/$NAME.o"
      gcc -g -O0 -w -DCAIRN_GCOV -c "$D/suite/replay/harness.c" -o "$D/cov/harness.o"
      gcc --coverage "$D/cov/$NAME.o" "$D/cov/harness.o" -lm -Wl,-u,__gcov_dump -o "$D/cov/replay"
      score "$NAME" cairn cairn_replay_one "$D/cov/replay" "$D/cov" "$D"/suite/tests/*.json
    elif [ "$TOOL" = klee ]; then
      # KLEE with its POSIX runtime, the same shape as --sym-args/--sym-files and a symbolic
      # stdin of KLEE_STDIN bytes; its tests replayed natively by klee-replay.
      KSYM=()
      [ "$MAX" -gt 0 ] && KSYM+=(--sym-args "$MIN" "$MAX" "$LEN")
      [ "$FILES" -gt 0 ] && KSYM+=(--sym-files "$FILES" "$SIZE")
      KSYM+=(--sym-stdin "${KLEE_STDIN:-64}")
      "$KLEE_CLANG" -emit-llvm -c -g -O0 -Xclang -disable-O0-optnone -w -std=gnu99 -fcommon \
        -Wno-error=implicit-function-declaration -Wno-error=implicit-int \
        -Wno-error=int-conversion -Wno-error=return-type \
        "$SRC" -o "$D/prog.bc" > "$D/run.log" 2>&1 || true
      timeout -s INT -k 30 $((SECS + 120)) "$KLEE" --output-dir="$D/klee-out" --libc=uclibc \
        --posix-runtime --search=random-path --search=nurs:covnew --max-memory=2000 \
        --max-time="${SECS}s" --watchdog "$D/prog.bc" "${KSYM[@]}" >> "$D/run.log" 2>&1 || true
      # shellcheck disable=SC2086
      gcc $CFLAGS --coverage -c "$SRC" -o "$D/cov/$NAME.o"
      gcc --coverage "$D/cov/$NAME.o" -lm -o "$D/cov/replay"
      shopt -s nullglob
      score "$NAME" klee klee_replay_one "$D/cov/replay" "$D/cov" "$D"/klee-out/*.ktest
      shopt -u nullglob
    else
      # The peer harness's runner, in a copy of its directory where the driver is this shape's
      # cmdline_driver.c and the corpus-to-tests step keeps the raw inputs.
      E=$D/eval; mkdir -p "$E"
      ln -s "$EVAL"/run-*.sh "$E"/
      printf '#define MIN_ARGS %s\n#define MAX_ARGS %s\n#define ARG_LEN %s\n#define FILES %s\n#define FILE_SIZE %s\n#include "%s"\n' \
        "$MIN" "$MAX" "$LEN" "$FILES" "$SIZE" "$DRIVER" > "$E/fuzz_harness.c"
      cat > "$E/fuzz2tests.py" <<'EOF'
import os, shutil, sys
out = sys.argv[2]; os.makedirs(out, exist_ok=True); n = 0
for d in sys.argv[3:]:
    for f in sorted(os.listdir(d)) if os.path.isdir(d) else []:
        p = os.path.join(d, f)
        if os.path.isfile(p):
            shutil.copy(p, os.path.join(out, "%06d" % n)); n += 1
print(n)
EOF
      EVAL_CFLAGS="-Dfopen=cmdline_fopen" "$E/run-$TOOL.sh" "$SRC" "$SECS" "$D/run" > "$D/run.log" 2>&1 || true
      # shellcheck disable=SC2086
      gcc $CFLAGS --coverage -Dmain=__eval_program_main -Dexit=__eval_exit -Dabort=__eval_abort \
        -Dfopen=cmdline_fopen -c "$SRC" -o "$D/cov/$NAME.o"
      # shellcheck disable=SC2086
      gcc -g -O0 -w -DCMDLINE_REPLAY $SHAPE -c "$DRIVER" -o "$D/cov/driver.o"
      gcc --coverage "$D/cov/$NAME.o" "$D/cov/driver.o" -lm -Wl,-u,__gcov_dump -o "$D/cov/replay"
      shopt -s nullglob
      score "$NAME" "$TOOL" fuzz_replay_one "$D/cov/replay" "$D/cov" "$D"/run/tests/*
      shopt -u nullglob
    fi
  done
done < "$LIST"
python3 "$EVAL/table.py" "$TSV" $TOOLS
echo
python3 "$ROOT/benches/peers/compare.py" "$TSV" cairn

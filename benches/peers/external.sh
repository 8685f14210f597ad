#!/bin/bash
# usage: benches/peers/external.sh DIR
#
# Programs nobody here wrote, checked out into DIR (not committed), and measure.sh lists for
# them: DIR/crest.list (CREST's test programs, jburnim/crest test/*.c with its crest.h).
# CREST_GIT: where to clone CREST from (default its GitHub repository; a local clone or
# mirror works too). sv-benchmarks tasks: write a list of the task files by hand (one
# "PATH.c" per line); the harness reads __VERIFIER_nondet_* and reach_error.
set -eu
[ $# -eq 1 ] || { sed -n '2,2p' "$0"; exit 2; }
mkdir -p "$1"; DIR=$(realpath "$1")
CREST_GIT=${CREST_GIT:-https://github.com/jburnim/crest}
[ -d "$DIR/crest" ] || git clone -q --depth 1 "$CREST_GIT" "$DIR/crest"
: > "$DIR/crest.list"
for f in "$DIR"/crest/test/*.c; do
  echo "$f -I$DIR/crest/src/libcrest" >> "$DIR/crest.list"
done
echo "$DIR/crest.list: $(wc -l < "$DIR/crest.list") programs"

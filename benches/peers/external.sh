#!/bin/bash
# usage: benches/peers/external.sh DIR
#
# Programs nobody here wrote, checked out into DIR (not committed), and lists for them:
# DIR/crest.list (CREST's test programs, jburnim/crest test/*.c with its crest.h; for run.sh)
# and DIR/siemens.list (the Siemens programs of houzss/Software-Fault-Location-By-SiemensSuite
# with their own main, each with the argv/files shape its test universe uses; for cmdline.sh).
# CREST_GIT, SIEMENS_GIT: where to clone them from (default their GitHub repositories; a local
# clone or mirror works too). sv-benchmarks tasks: write a list of the task files by hand (one
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
SIEMENS_GIT=${SIEMENS_GIT:-https://github.com/houzss/Software-Fault-Location-By-SiemensSuite}
[ -d "$DIR/siemens" ] || git clone -q --depth 1 "$SIEMENS_GIT" "$DIR/siemens"
# PATH MIN MAX LEN [FILES SIZE]: argument count and length, and files, as their universes run
# them (print_tokens: a file name or stdin; replace: pattern and substitution; schedule: three
# counts; tcas: twelve numbers; tot_info: stdin only), stdin always.
S=$DIR/siemens
cat > "$DIR/siemens.list" <<EOF
$S/printtokens/source.alt/source.orig/print_tokens.c 0 1 1 1 24
$S/printtokens2/source.alt/source.orig/print_tokens2.c 0 1 1 1 24
$S/replace/source.alt/source.orig/replace.c 1 2 4
$S/schedule/source.alt/source.orig/schedule.c 0 3 2
$S/schedule2/source.alt/source.orig/schedule2.c 0 3 2
$S/tcas/source.alt/source.orig/tcas.c 0 12 5
$S/totinfo/source.alt/source.orig/tot_info.c 0 0 1
EOF
echo "$DIR/siemens.list: 7 programs"

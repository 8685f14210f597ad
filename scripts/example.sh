#!/usr/bin/env bash
# Installs what Cairn needs, builds it, generates tests for the bundled example and replays them natively.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install.sh
cargo build --release
./target/release/cairn gen examples/triangle.c --out out/triangle --time 10s --seed 1
./target/release/cairn replay examples/triangle.c out/triangle

#!/usr/bin/env bash
# Installs what Cairn needs, builds it, and runs the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install.sh
cargo build --release
cargo test --release -- --test-threads=2

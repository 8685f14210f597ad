#!/usr/bin/env bash
# Installs what Cairn needs, builds it, and runs the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install.sh
cargo build --release
# Every test binary runs even after one fails, so a log shows all failures.
cargo test --release --no-fail-fast -- --test-threads=2

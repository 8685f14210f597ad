#!/usr/bin/env bash
# Idempotent installer of everything Cairn needs beyond the Rust toolchain.
# Safe to run repeatedly; installs only what is missing.
set -euo pipefail

PKGS=(clang-19 llvm-19 llvm-19-dev libpolly-19-dev libzstd-dev libclang-rt-19-dev
      libz3-dev z3 csmith libcsmith-dev lcov clang-tidy libc6-dev-i386 gcc-multilib
      chromium parallel cmake g++ libgtest-dev)

missing=()
for p in "${PKGS[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done

SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi

if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  # apt can fail once on this machine kind when archives are cleaned mid-install: retry once.
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" \
    || { sleep 2; $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"; }
fi

# TestCov, the external Test-Comp validator, and BenchExec, which runs Cairn through its
# tool-info module (benchexec_tools/cairn.py); both are checked by tests/testcomp.rs.
if ! command -v testcov >/dev/null 2>&1; then
  python3 -m pip install -q testcov >/dev/null 2>&1 || echo "warning: could not install testcov" >&2
fi
if ! python3 -c "import benchexec" >/dev/null 2>&1 || ! command -v benchexec >/dev/null 2>&1; then
  python3 -m pip install -q benchexec >/dev/null 2>&1 || echo "warning: could not install benchexec" >&2
fi

# The SARIF 2.1.0 schema, which tests/workflow.rs validates faults.sarif against: it ships in
# the npm package of Microsoft's SARIF multitool (only the schema is kept).
# Kept in the checkout (.tools/ is ignored by git), so no home directory is needed.
SARIF_SCHEMA="$(cd "$(dirname "$0")/.." && pwd)/.tools/sarif-2.1.0.json"
if [ ! -s "$SARIF_SCHEMA" ]; then
  command -v npm >/dev/null 2>&1 || $SUDO apt-get install -y -qq --no-install-recommends npm
  tmp=$(mktemp -d)
  ( cd "$tmp" && npm pack -q @microsoft/sarif-multitool-linux@5.7.0 >/dev/null 2>&1 \
      && tar xzf microsoft-sarif-multitool-linux-5.7.0.tgz package/sarif-2.1.0.json \
      && mkdir -p "$(dirname "$SARIF_SCHEMA")" && mv package/sarif-2.1.0.json "$SARIF_SCHEMA" ) \
    || echo "warning: could not fetch the SARIF schema" >&2
  rm -rf "$tmp"
fi
if ! python3 -c "import jsonschema" >/dev/null 2>&1; then
  python3 -m pip install -q jsonschema >/dev/null 2>&1 || echo "warning: could not install jsonschema" >&2
fi

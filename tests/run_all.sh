#!/usr/bin/env bash
# Every test of maxdyn: the Rust test suite (physics, solver, C ABI, header, C examples),
# then the bindings' tests against the built shared library.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test
cargo build --release --lib
for t in bindings/python/run_tests.sh bindings/matlab/run_octave_tests.sh; do
  if [ -f "$t" ]; then bash "$t"; fi
done

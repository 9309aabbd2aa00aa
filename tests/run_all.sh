#!/usr/bin/env bash
# Every test of maxdyn: physics and solver properties (the long horizons of
# tests/long_horizon.rs included: the test profile is optimized), the C ABI, the header,
# the C examples, the URDF loader and the Python and Octave bindings (all driven by cargo).
# Without GNU Octave the Octave binding test fails: install it with tests/setup.sh, or set
# MAXDYN_ALLOW_SKIP_OCTAVE=1 to skip that one test explicitly (CI sets
# MAXDYN_REQUIRE_OCTAVE=1, which never skips).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test

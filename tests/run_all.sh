#!/usr/bin/env bash
# Every test of maxdyn: physics and solver properties (the long horizons of
# tests/long_horizon.rs included: the test profile is optimized), the C ABI, the header,
# the C examples, the URDF loader and the Python and Octave bindings (all driven by cargo).
# A test whose tool or data (valgrind, Octave, the venv, the URDF corpus) is missing fails
# naming it: install them with tests/setup.sh, or skip by name, e.g.
# MAXDYN_SKIP=octave bash tests/run_all.sh (tests/common/require.rs, CONTRIBUTING.md).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test

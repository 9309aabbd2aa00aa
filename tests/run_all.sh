#!/usr/bin/env bash
# Every test of maxdyn: physics and solver properties, the C ABI, the header, the C
# examples, the URDF loader and the Python and Octave bindings (all driven by cargo).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test

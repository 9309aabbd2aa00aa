#!/usr/bin/env bash
# The peer benchmark in one command: setup (venv, shim, models), then
# `cargo bench --bench peer` (arguments are passed on, e.g. `-- --reps 7`).
set -euo pipefail
cd "$(dirname "$0")/../.."
bash benches/peer/setup.sh
export MAXDYN_PEER_SHIM="$PWD/target/peer/libmujoco_shim.so"
export MAXDYN_PEER_MODELS="$PWD/target/peer/models"
cargo bench --bench peer "$@"

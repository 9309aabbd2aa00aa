#!/usr/bin/env bash
# The evaluation report in one command: the MuJoCo peer set-up (benches/peer/setup.sh:
# venv with the mujoco wheel, its shim and models, under target/), then the report
# example, which writes PNG + CSV figures and index.html to target/report/.
#   bash scripts/report.sh [--quick] [--out DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
bash benches/peer/setup.sh
cargo run --release --example report -- "$@"

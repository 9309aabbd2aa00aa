#!/usr/bin/env bash
# Installs what maxdyn's tests need on a fresh Debian machine with a Rust toolchain:
# a C/C++ compiler (header and C-example tests), Python 3 with numpy (ctypes binding
# test), GNU Octave with mkoctfile (MATLAB/Octave MEX binding test).
set -euo pipefail
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
need=()
command -v gcc >/dev/null || need+=(gcc)
command -v g++ >/dev/null || need+=(g++)
command -v python3 >/dev/null || need+=(python3)
command -v nm >/dev/null || need+=(binutils)
if [ "${MAXDYN_SKIP_OCTAVE:-0}" != 1 ]; then
  command -v mkoctfile >/dev/null || need+=(octave liboctave-dev)
fi
if [ ${#need[@]} -gt 0 ]; then
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}"
fi
python3 -c "import numpy" 2>/dev/null || python3 -m pip install --quiet numpy
cargo --version

#!/usr/bin/env bash
# Installs what maxdyn's tests need on a fresh Debian machine with a Rust toolchain:
# gcc/g++ and binutils (header, symbol and C-example tests), valgrind (the C examples
# under memcheck), Python 3 (ctypes binding test), GNU Octave with mkoctfile
# (MATLAB/Octave MEX binding test).
set -euo pipefail
cd "$(dirname "$0")/.."
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
need=()
command -v gcc >/dev/null || need+=(gcc)
command -v g++ >/dev/null || need+=(g++)
command -v python3 >/dev/null || need+=(python3)
command -v nm >/dev/null || need+=(binutils)
command -v valgrind >/dev/null || need+=(valgrind)
if [ ${#need[@]} -gt 0 ]; then
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}"
fi
sh bindings/matlab/install_octave.sh
cargo --version

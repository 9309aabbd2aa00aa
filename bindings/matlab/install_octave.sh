#!/bin/sh
# Installs GNU Octave and mkoctfile (Debian/Ubuntu) for the MATLAB-binding tests.
set -e
if command -v mkoctfile >/dev/null 2>&1 && command -v octave-cli >/dev/null 2>&1; then
  echo "octave already installed: $(octave-cli --version | head -n 1)"
  exit 0
fi
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
$SUDO apt-get update
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends octave liboctave-dev

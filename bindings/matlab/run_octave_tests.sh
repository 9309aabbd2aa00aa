#!/bin/sh
# Builds the MEX gateway with mkoctfile against include/maxdyn.h and the shared library,
# then runs test_maxdyn.m in Octave. Usage: run_octave_tests.sh [path/to/libmaxdyn.so]
# (default: target/release/libmaxdyn.so, built here when missing).
set -e
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
LIB=${1:-${MAXDYN_LIB:-}}
if [ -z "$LIB" ]; then
  LIB="${CARGO_TARGET_DIR:-$ROOT/target}/release/libmaxdyn.so"
  [ -f "$LIB" ] || (cd "$ROOT" && cargo build --release --lib)
fi
LIBDIR=$(cd "$(dirname "$LIB")" && pwd)
# the MEX file asks the loader for the SONAME (libmaxdyn.so.0): make that name beside
# a library fresh from cargo, which only writes libmaxdyn.so
SONAME=$(readelf -d "$LIB" 2>/dev/null | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
if [ -n "$SONAME" ] && [ ! -e "$LIBDIR/$SONAME" ]; then ln -s "$(basename "$LIB")" "$LIBDIR/$SONAME"; fi
if [ -n "${MAXDYN_OCTAVE_BUILD:-}" ]; then
  BUILD=$MAXDYN_OCTAVE_BUILD
  mkdir -p "$BUILD"
else
  BUILD=$(mktemp -d)
  trap 'rm -rf "$BUILD"' EXIT
fi
# -Wl,-rpath so the MEX file finds libmaxdyn.so without LD_LIBRARY_PATH
mkoctfile --mex -o "$BUILD/maxdyn_mex" -I"$ROOT/include" "$HERE"/maxdyn_mex*.c \
  -L"$LIBDIR" -lmaxdyn -Wl,-rpath,"$LIBDIR"
# MAXDYN_OCTAVE_WRAPPER runs Octave under a tool (tests/valgrind_bindings.rs: valgrind)
${MAXDYN_OCTAVE_WRAPPER:-} octave-cli --no-gui --norc --quiet \
  --eval "addpath('$BUILD'); addpath('$HERE'); failed = test_maxdyn(); printf('live objects %d\\n', maxdyn_mex('live_objects')); if failed > 0, error('maxdyn:tests', '%d test(s) failed', failed); end"

#!/usr/bin/env bash
# Builds maxdyn in release and installs it under a prefix:
#   <prefix>/include/maxdyn.h
#   <prefix>/lib/libmaxdyn.so.X.Y.Z, libmaxdyn.so.X -> .so.X.Y.Z, libmaxdyn.so -> .so.X
#   <prefix>/lib/libmaxdyn.a            (both stripped of debug info)
#   <prefix>/lib/pkgconfig/maxdyn.pc
#   <prefix>/lib/cmake/maxdyn/maxdynConfig.cmake, maxdynConfigVersion.cmake
# Usage: scripts/install.sh --prefix P [--libdir lib] [--from DIR]
#   --from DIR  install the libmaxdyn.so and libmaxdyn.a already built in DIR (no build)
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
prefix="" libdir="lib" from=""
usage() { sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//' >&2; exit "${1:-2}"; }
while [ $# -gt 0 ]; do
  case "$1" in
    --prefix) prefix="${2:?--prefix needs a directory}"; shift 2 ;;
    --prefix=*) prefix="${1#*=}"; shift ;;
    --libdir) libdir="${2:?--libdir needs a name}"; shift 2 ;;
    --libdir=*) libdir="${1#*=}"; shift ;;
    --from) from="${2:?--from needs a directory}"; shift 2 ;;
    --from=*) from="${1#*=}"; shift ;;
    -h|--help) usage 0 ;;
    *) echo "install.sh: unknown argument '$1'" >&2; usage ;;
  esac
done
[ -n "$prefix" ] || { echo "install.sh: --prefix is required" >&2; usage; }
case "$libdir" in /*|*..*) echo "install.sh: --libdir is relative to the prefix (e.g. lib or lib64)" >&2; exit 2 ;; esac
mkdir -p "$prefix"
prefix="$(cd "$prefix" && pwd)"

version="$(sed -n 's/^version = "\(.*\)"$/\1/p' "$repo/Cargo.toml" | head -n1)"
major="${version%%.*}"
[ -n "$version" ] || { echo "install.sh: no version in Cargo.toml" >&2; exit 1; }

if [ -z "$from" ]; then
  (cd "$repo" && cargo build --release --lib)
  from="${CARGO_TARGET_DIR:-$repo/target}/release"
fi
for f in libmaxdyn.so libmaxdyn.a; do
  [ -f "$from/$f" ] || { echo "install.sh: $from/$f not found" >&2; exit 1; }
done

lib="$prefix/$libdir"
mkdir -p "$prefix/include" "$lib/pkgconfig" "$lib/cmake/maxdyn"
install -m 644 "$repo/include/maxdyn.h" "$prefix/include/maxdyn.h"
install -m 755 "$from/libmaxdyn.so" "$lib/libmaxdyn.so.$version"
ln -sfn "libmaxdyn.so.$version" "$lib/libmaxdyn.so.$major"
ln -sfn "libmaxdyn.so.$major" "$lib/libmaxdyn.so"
install -m 644 "$from/libmaxdyn.a" "$lib/libmaxdyn.a"
# No debug info in what is installed, whatever profile built it (--from may be a test
# build: its libmaxdyn.so is 37 MB with debug info, 2.8 MB without).
strip_tool="${STRIP:-strip}"
if command -v "$strip_tool" >/dev/null; then
  "$strip_tool" --strip-debug "$lib/libmaxdyn.so.$version" "$lib/libmaxdyn.a"
else
  echo "install.sh: warning: '$strip_tool' not found (binutils): installed with debug info" >&2
fi

# <prefix>/<libdir>/cmake/maxdyn back up to <prefix>
up="$(echo "$libdir/cmake/maxdyn" | sed 's#[^/][^/]*#..#g')"
fill() {
  sed -e "s#@PREFIX@#$prefix#g" -e "s#@LIBDIR@#$libdir#g" -e "s#@VERSION@#$version#g" \
      -e "s#@MAJOR@#$major#g" -e "s#@UP@#$up#g" "$1" > "$2"
}
fill "$repo/pkgconfig/maxdyn.pc.in" "$lib/pkgconfig/maxdyn.pc"
fill "$repo/cmake/maxdynConfig.cmake.in" "$lib/cmake/maxdyn/maxdynConfig.cmake"
fill "$repo/cmake/maxdynConfigVersion.cmake.in" "$lib/cmake/maxdyn/maxdynConfigVersion.cmake"
echo "installed maxdyn $version under $prefix"

#!/usr/bin/env bash
# Installs what maxdyn's tests need on a fresh Debian machine with a Rust toolchain:
# gcc/g++ and binutils (header, symbol and C-example tests), valgrind (the C examples
# under memcheck), Python 3 with venv (the pip package's tests), GNU Octave with mkoctfile
# (MATLAB/Octave MEX binding test), cmake and pkg-config (tests/install.rs: the installed
# library used through find_package and pkg-config).
# Usage: tests/setup.sh [--no-octave]   (--no-octave: for C-only users; then run the tests
# with MAXDYN_SKIP=octave, which skips the Octave binding tests by name)
set -euo pipefail
cd "$(dirname "$0")/.."
octave=1
for arg in "$@"; do
  case "$arg" in
    --no-octave) octave=0 ;;
    *) echo "setup.sh: unknown argument '$arg' (known: --no-octave)" >&2; exit 2 ;;
  esac
done
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
need=()
command -v gcc >/dev/null || need+=(gcc)
command -v g++ >/dev/null || need+=(g++)
command -v python3 >/dev/null || need+=(python3)
command -v nm >/dev/null || need+=(binutils)
command -v valgrind >/dev/null || need+=(valgrind)
command -v cmake >/dev/null || need+=(cmake)
python3 -c "import ensurepip, venv" 2>/dev/null || need+=(python3-venv)
command -v pkg-config >/dev/null || need+=(pkg-config)
if [ ${#need[@]} -gt 0 ]; then
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}"
fi
if [ "$octave" = 1 ]; then sh bindings/matlab/install_octave.sh; fi
cargo --version
# Python venv for tests/python_package.rs (pip installs bindings/python into it, then
# pytest): numpy, pytest and the build backend, and Pinocchio (PyPI `pin`, the reference
# of test_floating_base.py), from PyPI.
VENV=target/python-venv
if [ ! -x "$VENV/bin/pytest" ]; then
  python3 -m venv "$VENV"
  "$VENV/bin/python" -m pip install --quiet numpy pytest setuptools wheel
fi
# Gymnasium (the reinforcement-learning environment API) for the A1 environment example
# (bindings/python/examples/a1_stand_env.py and its test)
if ! "$VENV/bin/python" -c "import gymnasium" 2>/dev/null; then
  "$VENV/bin/python" -m pip install --quiet gymnasium==1.2.2
fi
if ! "$VENV/bin/python" -c "import pinocchio" 2>/dev/null; then
  "$VENV/bin/python" -m pip install --quiet pin==4.1.0
fi
# Ray (the package's `ray` extra, maxdyn/distributed.py) and CMA-ES (the gait learning
# example, bindings/python/examples/learn_a1_gait.py) for test_distributed.py
if ! "$VENV/bin/python" -c "import ray, cma" 2>/dev/null; then
  "$VENV/bin/python" -m pip install --quiet ray==2.60.0 cma==4.5.0
fi
# URDF corpus for tests/urdf_corpus.rs and tests/urdf_meshes.rs: the *.urdf and *.srdf
# files of example-robot-data 6.0.0 (PyPI) and their collision and visual meshes (.stl,
# .dae, .obj in any letter case), unpacked under target/ (not committed); skipped when
# already present. The marker `.complete-meshes` is new with the meshes: a machine that has
# only the URDFs (marker `.complete`) unpacks again.
CORPUS=target/corpus/example-robot-data-6.0.0
if [ ! -f "$CORPUS/.complete-meshes" ]; then
  tmp=$(mktemp -d)
  python3 -m pip download --no-deps --quiet example-robot-data==6.0.0 -d "$tmp"
  python3 - "$tmp" "$CORPUS" <<'PY'
import glob, os, sys, zipfile
tmp, out = sys.argv[1], sys.argv[2]
wheel = glob.glob(os.path.join(tmp, "example_robot_data-6.0.0-*.whl"))[0]
kept = (".urdf", ".srdf", ".stl", ".dae", ".obj")
with zipfile.ZipFile(wheel) as z:
    for name in z.namelist():
        if name.lower().endswith(kept):
            dest = os.path.join(out, name)
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            with open(dest, "wb") as f:
                f.write(z.read(name))
for marker in (".complete", ".complete-meshes"):
    open(os.path.join(out, marker), "w").close()
PY
  rm -rf "$tmp"
fi
# The viewer test (tests/viewer.rs): Debian's chromium (headless screenshots) and node/npm
# with the viewer's pinned three.js and esbuild (viewer/package-lock.json).
command -v chromium >/dev/null || { $SUDO apt-get update -qq; DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium; }
command -v npm >/dev/null || { $SUDO apt-get update -qq; DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq nodejs npm; }
[ -d viewer/node_modules/three ] || (cd viewer && npm ci --no-audit --no-fund)
# The Julia binding's syntax check (tests/julia_signatures.rs): tree-sitter-julia's
# WebAssembly grammar and web-tree-sitter (tests/julia_syntax/package-lock.json). Julia
# itself cannot be installed here: its installers download from Julia's own servers.
[ -f tests/julia_syntax/node_modules/tree-sitter-julia/tree-sitter-julia.wasm ] ||
  (cd tests/julia_syntax && npm ci --no-audit --no-fund --ignore-scripts)
# The report's plots (examples/report) draw their text with DejaVu Sans.
[ -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || { $SUDO apt-get update -qq; DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq fonts-dejavu-core; }

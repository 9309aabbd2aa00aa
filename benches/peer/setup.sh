#!/usr/bin/env bash
# Prepares the peer benchmark (benches/peer.rs): a Python venv with the `mujoco` wheel,
# the C shim compiled against the wheel's headers and libmujoco, and the MuJoCo models
# (those of benches/collision_stage.rs too).
# Idempotent; everything goes under target/. Needs python3 (with venv), gcc, network
# access to PyPI the first time.
set -euo pipefail
cd "$(dirname "$0")/../.."

MUJOCO_VERSION=4.0.0
VENV=target/peer-venv
OUT=target/peer

if [ ! -x "$VENV/bin/python" ]; then
  python3 -m venv "$VENV"
fi
if ! "$VENV/bin/python" -c "import mujoco, sys; sys.exit(mujoco.__version__ != '$MUJOCO_VERSION')" 2>/dev/null; then
  "$VENV/bin/pip" install --quiet --disable-pip-version-check "mujoco==$MUJOCO_VERSION"
fi

PKG=$("$VENV/bin/python" -c "import mujoco, os; print(os.path.dirname(mujoco.__file__))")
LIB=$(ls "$PKG"/libmujoco.so.* | head -n 1)
mkdir -p "$OUT/lib"
# the linker wants libmujoco.so; the wheel ships only libmujoco.so.X.Y.Z
ln -sf "$LIB" "$OUT/lib/libmujoco.so"
gcc -O2 -fPIC -shared -Wall -Wextra -o "$OUT/libmujoco_shim.so" benches/peer/mujoco_shim.c \
  -I"$PKG/include" -L"$OUT/lib" -lmujoco -Wl,-rpath,"$PKG" -lm

"$VENV/bin/python" benches/peer/make_models.py tests/fixtures/a1_cd_paper_quadruped_simple.urdf "$OUT/models"
# the corpus robots for benches/collision_stage.rs (example-robot-data, unpacked by
# tests/setup.sh); without it that benchmark times maxdyn alone
ROBOTS=target/corpus/example-robot-data-6.0.0/cmeel.prefix/share/example-robot-data/robots
if [ -d "$ROBOTS" ]; then
  "$VENV/bin/python" benches/peer/make_robot_models.py "$ROBOTS" "$OUT/robots"
else
  echo "no $ROBOTS (run tests/setup.sh): the collision-stage robots are not made"
fi
echo "peer benchmark ready: $OUT/libmujoco_shim.so (MuJoCo $MUJOCO_VERSION)"
